/// Where each record is, by id: the index behind `Document`'s lookups.
///
/// Open addressing with linear probing over `Int32` positions, at most half full. The
/// ids are not kept here: a probe reads the id of the record a slot points to, and the
/// record is what the caller reads next anyway. A `[String: Int]` kept a second copy
/// of every id beside an `Int`, 24 bytes a bucket at most 3/4 full: 6.3 MB for 100k
/// records, a fifth of their file, where this takes 1 MB. Ids are compared as `String`s
/// and hash with `IDHash` (an ASCII id by its bytes), seeded at random per process, so no
/// file can be made to collide.
///
/// Positions are `Int32`: two billion records would not fit in memory anyway.
struct IDIndex<Root: Record>: Sendable {
  private static var empty: Int32 { -1 }
  private var slots: [Int32]
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

  private static func hash(_ id: String) -> Int {
    Int(truncatingIfNeeded: IDHash.hash(id))
  }

  /// The slot that holds `id`, or the empty slot where it would go. Ids are the same when
  /// they are the same `String` (canonically equivalent), which `IDHash` hashes alike.
  private func slot(of id: String, in records: UnsafeBufferPointer<Root>) -> (slot: Int, position: Int?) {
    slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Self.hash(id) & mask
      while true {
        let position = Int(slots[slot])
        if position < 0 { return (slot, nil) }
        if records[position].id == id { return (slot, position) }
        slot = (slot + 1) & mask
      }
    }
  }

  /// The slot that holds the id whose UTF-8 is `bytes`, which must be ASCII, as `slot(of:)`
  /// finds it, without making a `String` of the bytes: an id with the same bytes is the
  /// same id; one with other bytes is another unless it is not ASCII (the Kelvin sign is
  /// `K`), which is compared as a `String`. A probe loop of its own: one shared with
  /// `slot(of:)` through a closure that compares cost about 65 instructions a lookup more.
  private func slot(ofASCII bytes: UnsafeBufferPointer<UInt8>, in records: UnsafeBufferPointer<Root>) -> (
    slot: Int, position: Int?
  ) {
    slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: IDHash.hash(bytes: bytes)) & mask
      while true {
        let position = Int(slots[slot])
        if position < 0 { return (slot, nil) }
        var held = records[position].id
        let same = held.withUTF8 { held in
          CanonicalJSON.sameBytes(held, bytes) ? true : IDHash.isASCII(held) ? false : nil
        }
        if same ?? (held == String(decoding: bytes, as: UTF8.self)) { return (slot, position) }
        slot = (slot + 1) & mask
      }
    }
  }

  /// The position of the record with `id`.
  func position(of id: String, in records: UnsafeBufferPointer<Root>) -> Int? {
    slot(of: id, in: records).position
  }

  /// The position of the record whose id's UTF-8 is `bytes`, when they are ASCII (else
  /// `nil`: the caller asks `position(of:)`).
  func position(ofASCII bytes: UnsafeBufferPointer<UInt8>, in records: UnsafeBufferPointer<Root>) -> Int? {
    IDHash.isASCII(bytes) ? slot(ofASCII: bytes, in: records).position : nil
  }

  /// Adds the record at `position`, unless its id is already there: then returns that
  /// record's position and changes nothing. Every position in the index must be right
  /// for `records`.
  mutating func insert(position: Int, in records: UnsafeBufferPointer<Root>) -> Int? {
    if (count + 1) * 2 > slots.count { grow(in: records) }
    let found = slot(of: records[position].id, in: records)
    if let existing = found.position { return existing }
    slots[found.slot] = Int32(truncatingIfNeeded: position)
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
      var hole = found.slot
      var next = (hole + 1) & mask
      while slots[next] >= 0 {
        let home = Self.hash(records[Int(slots[next])].id) & mask
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
    let start = Int32(truncatingIfNeeded: start)
    slots.withUnsafeMutableBufferPointer { slots in
      for index in slots.indices where slots[index] >= start { slots[index] &+= delta }
    }
  }

  /// Twice the slots, every record placed again.
  private mutating func grow(in records: UnsafeBufferPointer<Root>) {
    var grown = IDIndex(capacity: max(count + 1, slots.count))
    slots.withUnsafeBufferPointer { slots in
      for position in slots where position >= 0 {
        let found = grown.slot(of: records[Int(position)].id, in: records)
        grown.slots[found.slot] = position
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

  /// Whether every byte is below 0x80. Eight bytes at a time.
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return true }
    var offset = 0
    var high: UInt64 = 0
    while offset + 8 <= bytes.count {
      high |= base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    while offset < bytes.count {
      high |= UInt64(bytes[offset])
      offset += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
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
