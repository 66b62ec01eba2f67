/// Where each record is, by id: the index behind `Document`'s lookups.
///
/// Open addressing with linear probing over 32-bit slots, at most half full. The ids are
/// not kept here: a probe reads the id of the record a slot points to, and the record is
/// what the caller reads next anyway. A `[String: Int]` kept a second copy of every id
/// beside an `Int`, 24 bytes a bucket at most 3/4 full: 6.3 MB for 100k records, a fifth
/// of their file, where this takes 1 MB. Ids are compared as `String`s and hash with
/// `IDHash` (an ASCII id by its bytes), seeded at random per process, so no file can be
/// made to collide.
///
/// A slot holds its record's position plus one in its low bits (as many as the slot
/// count's power of two: a position is below half the slot count) and, in the bits above,
/// a tag: the same bits of its id's hash, from the hash's high half (the low half picks
/// the slot). `0` is an empty slot. A probe reads a record only where the tags agree, so
/// a probe that passes other ids' slots does not read their records — each such read was
/// a cache miss into the records. With 100k records the tag has 14 bits; with two billion,
/// none (every probe reads its record, as without tags).
struct IDIndex<Root: Record>: Sendable {
  private static var empty: UInt32 { 0 }
  private var slots: [UInt32]
  private(set) var count = 0

  /// An empty index with room for `capacity` ids before it grows.
  init(capacity: Int = 0) {
    slots = Array(repeating: Self.empty, count: Self.slotCount(for: capacity))
  }

  /// A power of two at least twice `count`.
  private static func slotCount(for count: Int) -> Int {
    var slots = 16
    while slots < count * 2 { slots *= 2 }
    return slots
  }

  /// The bits of a slot that hold a position plus one, for `slotCount` slots.
  @inline(__always)
  private static func positionMask(slotCount: Int) -> UInt32 {
    slotCount.trailingZeroBitCount >= 32 ? .max : UInt32(slotCount - 1)
  }

  /// The position a slot's `entry` holds (`positions`: `positionMask`). Needs a slot that
  /// is not empty.
  @inline(__always)
  private static func position(_ entry: UInt32, _ positions: UInt32) -> Int {
    Int(entry & positions) - 1
  }

  /// One lookup's walk over the slots from the home of its id's hash: `nextCandidate()`
  /// gives, in turn, the position in each slot whose tag is the id's, and `nil` at the
  /// first empty slot, which is where the id would go. `slot` is the slot looked at last.
  /// What `slot(of:)` and `position(ofASCII:in:)` share: each compares the ids at the positions
  /// it is given (a comparison passed in as a closure cost about 65 instructions a lookup).
  private struct Probe {
    let slots: UnsafeBufferPointer<UInt32>
    /// The bits of a slot that hold a position (`positionMask`).
    let positions: UInt32
    /// The bits of the hash a slot of this id holds above its position.
    let tag: UInt32
    private(set) var slot = 0
    private var next: Int

    @inline(__always)
    init(hash: UInt64, in slots: UnsafeBufferPointer<UInt32>) {
      self.slots = slots
      positions = IDIndex.positionMask(slotCount: slots.count)
      tag = UInt32(truncatingIfNeeded: hash >> 32) & ~positions
      next = Int(truncatingIfNeeded: hash) & (slots.count - 1)
    }

    @inline(__always)
    mutating func nextCandidate() -> Int? {
      while true {
        slot = next
        next = (next + 1) & (slots.count - 1)
        let entry = slots[slot]
        if entry == IDIndex.empty { return nil }
        if entry & ~positions == tag { return IDIndex.position(entry, positions) }
      }
    }
  }

  /// A slot's value for an id with tag `tag` at `position`.
  @inline(__always)
  private static func entry(tag: UInt32, position: Int) -> UInt32 {
    tag | UInt32(truncatingIfNeeded: position + 1)
  }

  /// The slot that holds `id`, or the empty slot where it would go, with the record's
  /// position when there is one, and `id`'s tag. Ids are the same when they are the same
  /// `String` (canonically equivalent), which `IDHash` hashes alike.
  private func slot(of id: String, in records: UnsafeBufferPointer<Root>) -> (
    slot: Int, position: Int?, tag: UInt32
  ) {
    let hash = IDHash.hash(id)
    return slots.withUnsafeBufferPointer { slots in
      var probe = Probe(hash: hash, in: slots)
      while let position = probe.nextCandidate() {
        if records[position].id == id { return (probe.slot, position, probe.tag) }
      }
      return (probe.slot, nil, probe.tag)
    }
  }

  /// The position of the record with `id`.
  func position(of id: String, in records: UnsafeBufferPointer<Root>) -> Int? {
    slot(of: id, in: records).position
  }

  /// The position of the record whose id's UTF-8 is `bytes`, when they are ASCII (else
  /// `nil`: the caller asks `position(of:)`), found as `position(of:)` finds it without
  /// making a `String` of the bytes: an id with the same bytes is the same id; one with
  /// other bytes is another unless it is not ASCII (the Kelvin sign is `K`), which is
  /// compared as a `String`.
  func position(ofASCII bytes: UnsafeBufferPointer<UInt8>, in records: UnsafeBufferPointer<Root>) -> Int? {
    guard IDHash.isASCII(bytes) else { return nil }
    return position(ofASCII: bytes, hash: IDHash.hash(bytes: bytes), in: records)
  }

  /// `position(ofASCII:in:)` for bytes known to be ASCII whose `IDHash.hash(bytes:)` is
  /// `hash`, taken before (a lookup begun ahead of its turn: `IDLookahead`).
  func position(
    ofASCII bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, in records: UnsafeBufferPointer<Root>
  ) -> Int? {
    slots.withUnsafeBufferPointer { slots in
      var probe = Probe(hash: hash, in: slots)
      while let position = probe.nextCandidate() {
        var held = records[position].id
        let same = held.withUTF8 { held in
          CanonicalJSON.sameBytes(held, bytes) ? true : IDHash.isASCII(held) ? false : nil
        }
        if same ?? (held == String(decoding: bytes, as: UTF8.self)) { return position }
      }
      return nil
    }
  }

  /// Asks the processor for the slot where a lookup of an id whose hash is `hash` starts
  /// (`CacheHint`): reads nothing. O(1).
  func warmSlot(hash: UInt64) {
    slots.withUnsafeBufferPointer { slots in
      guard let base = slots.baseAddress else { return }
      CacheHint.read(base + (Int(truncatingIfNeeded: hash) & (slots.count - 1)))
    }
  }

  /// The position in the first slot of a lookup of `hash`'s walk whose tag is the hash's:
  /// the record that lookup most likely ends at, which its caller may warm; `nil` when the
  /// walk meets an empty slot first (no record has the id). Reads slots only, never a
  /// record, so it is not an answer: another id may share the tag.
  func likelyPosition(hash: UInt64) -> Int? {
    slots.withUnsafeBufferPointer { slots in
      var probe = Probe(hash: hash, in: slots)
      return probe.nextCandidate()
    }
  }

  /// Adds the record at `position`, unless its id is already there: then returns that
  /// record's position and changes nothing. Every position in the index must be right
  /// for `records`.
  mutating func insert(position: Int, in records: UnsafeBufferPointer<Root>) -> Int? {
    if (count + 1) * 2 > slots.count { grow(in: records) }
    let found = slot(of: records[position].id, in: records)
    if let existing = found.position { return existing }
    slots[found.slot] = Self.entry(tag: found.tag, position: position)
    count += 1
    return nil
  }

  /// Removes the record at `position` (which must be in the index).
  mutating func remove(position: Int, in records: UnsafeBufferPointer<Root>) {
    let found = slot(of: records[position].id, in: records)
    guard found.position != nil else { return }
    count -= 1
    // Backward-shift deletion: later slots of the probe run move into the hole when
    // their own probe would pass it, so no run is cut short and no tombstones build up.
    slots.withUnsafeMutableBufferPointer { slots in
      let mask = slots.count - 1
      let positions = Self.positionMask(slotCount: slots.count)
      var hole = found.slot
      var next = (hole + 1) & mask
      while slots[next] != Self.empty {
        let home =
          Int(truncatingIfNeeded: IDHash.hash(records[Self.position(slots[next], positions)].id)) & mask
        // The entry at `next` may fill the hole unless its home lies after the hole,
        // up to `next` itself (cyclically).
        let homeAfterHole = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
        if !homeAfterHole {
          slots[hole] = slots[next]
          hole = next
        }
        next = (next + 1) & mask
      }
      slots[hole] = Self.empty
    }
  }

  /// Adds `delta` to every position from `start` on: records moved by an insert or a removal.
  mutating func shiftPositions(from start: Int, by delta: Int32) {
    slots.withUnsafeMutableBufferPointer { slots in
      let positions = Self.positionMask(slotCount: slots.count)
      // A slot holds its position plus one: the positions from `start` hold more than it.
      let first = UInt32(truncatingIfNeeded: start)
      for index in slots.indices where slots[index] != Self.empty && slots[index] & positions > first {
        slots[index] =
          slots[index] & ~positions
          | UInt32(truncatingIfNeeded: Int32(bitPattern: slots[index] & positions) &+ delta)
      }
    }
  }

  /// Twice the slots, every record placed again.
  private mutating func grow(in records: UnsafeBufferPointer<Root>) {
    var grown = IDIndex(capacity: max(count + 1, slots.count))
    slots.withUnsafeBufferPointer { slots in
      let positions = Self.positionMask(slotCount: slots.count)
      for entry in slots where entry != Self.empty {
        let position = Self.position(entry, positions)
        let found = grown.slot(of: records[position].id, in: records)
        grown.slots[found.slot] = Self.entry(tag: found.tag, position: position)
      }
    }
    grown.count = count
    self = grown
  }
}

/// The hash `IDIndex` places an id by: the same for ids that are the same `String`. An
/// ASCII id is hashed by its bytes: each 16 (and the last up to 16) are two words mixed
/// with the state by a folded 128-bit multiply, as wyhash does, each operand first
/// combined with a random key, so that no bytes can be chosen to zero one (which would
/// make a collision that holds for every seed); any other id as `hash(nonASCII:)` says.
/// Written here because the standard library's `Hasher` (SipHash) took about 250
/// instructions an id, most of a `use`'s lookup, where this takes about 40. The keys are
/// drawn once per process, so which ids collide cannot be known from a file.
enum IDHash {
  /// Drawn together: one lazy global's check per hash, not two.
  private static let keys = (seed: UInt64.random(in: .min ... .max), key: UInt64.random(in: .min ... .max))
  private static let final: UInt64 = 0xE703_7ED1_A0B4_28DB

  /// The hash of `id`, the same for ids that are the same `String` (canonically
  /// equivalent): an ASCII id's bytes; any other as `hash(nonASCII:)` says. O(its length); no
  /// allocation for a native ASCII string.
  static func hash(_ id: String) -> UInt64 {
    // A native string lends its bytes where they are (an inline one from the stack).
    var id = id
    if let hash = id.withUTF8({ isASCII($0) ? hash(bytes: $0) : nil }) { return hash }
    return hash(nonASCII: id)
  }

  /// An id with a character that is not ASCII. When every such character is one of the
  /// three whose canonical decomposition is ASCII (U+037E GREEK QUESTION MARK is `;`,
  /// U+1FEF GREEK VARIA is `` ` ``, U+212A KELVIN SIGN is `K`), the id is the same `String`
  /// as that ASCII id, and hashes as it. Any other decomposes to something that is not
  /// ASCII, so it is no ASCII id, and it hashes as the standard library's `Hasher` does,
  /// alike for canonically equivalent strings. Rare (a file's ids are ASCII), so its cost
  /// does not matter.
  private static func hash(nonASCII id: String) -> UInt64 {
    var ascii: [UInt8] = []
    for scalar in id.unicodeScalars {
      switch scalar.value {
      case 0..<0x80: ascii.append(UInt8(scalar.value))
      case 0x037E: ascii.append(UInt8(ascii: ";"))
      case 0x1FEF: ascii.append(UInt8(ascii: "`"))
      case 0x212A: ascii.append(UInt8(ascii: "K"))
      default:
        var hasher = Hasher()
        hasher.combine(id)
        return UInt64(truncatingIfNeeded: hasher.finalize())
      }
    }
    return ascii.withUnsafeBufferPointer { hash(bytes: $0) }
  }

  /// Whether every byte is below 0x80.
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    UTF8Validation.asciiPrefixCount(bytes) == bytes.count
  }

  /// The hash of `bytes`: every byte and the count take part.
  static func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let count = bytes.count
    let (seed, key) = keys
    var state = seed
    // No bytes: the same hash whether or not the buffer has an address.
    guard count > 0, let base = bytes.baseAddress.map(UnsafeRawPointer.init) else {
      return mix(state ^ key, final)
    }
    var offset = 0
    while count - offset > 16 {
      state = mix(
        base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ key,
        base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self) ^ state)
      offset += 16
    }
    // The last 1 to 16 bytes as two words; their loads may overlap.
    let rest = count - offset
    let (low, high): (UInt64, UInt64)
    if rest >= 8 {
      low = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      high = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    } else if rest >= 4 {
      low = UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
      high = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
    } else {
      low =
        UInt64(bytes[offset]) << 16 | UInt64(bytes[offset + rest / 2]) << 8 | UInt64(bytes[count - 1])
      high = 0
    }
    return mix(final ^ UInt64(count), mix(low ^ key, high ^ state))
  }

  /// The two halves of `a * b` (128 bits) combined.
  @inline(__always)
  private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    return product.high ^ product.low
  }
}

/// A lookup by an ASCII id begun before its turn (`Document.lookahead(ofASCIIID:)`): the
/// id's hash, which depends on its bytes and the process's keys only, never on the
/// records, so it holds for any later state of any document of this process.
public struct IDLookahead: Sendable {
  let hash: UInt64
}
