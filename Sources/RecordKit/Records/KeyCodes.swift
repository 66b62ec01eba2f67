import Synchronization

/// The member keys a record's stored text names by a code instead of spelling them: the
/// process's table of key tokens (a key's canonical string token, quotes included), each
/// given the next number the first time a text is stored with it, and kept for the
/// process's life.
///
/// **The keyed form.** `CustomFields` stores its members' canonical text with each top
/// member's `"key":` replaced by the key's code where the key has one: one byte
/// `0x01`–`0x1E` for the first 30 keys, `0x1F` and two bytes (little-endian) for the
/// next 65,536. Canonical text has no raw byte below `0x20` (strings escape them), so a
/// code is told from a key token by its first byte; the commas stay. A file's records
/// name the same few keys in every record, which were a quarter of their text.
///
/// **One form per text.** Every text is stored keyed, and a key gets a code whenever a
/// text is stored with it and the table has room; it never loses it. So a key is coded in
/// every stored text or in none (a key met when the table was full stays spelled, as the
/// table stays full), and two texts of the same members are the same bytes: equality and
/// hashing stay a comparison of bytes.
///
/// Thread-safe: codes are found and given under a lock; a code's token is written before
/// the code is handed out and never changes after, so reading it takes no lock (a text
/// holding the code was made after it). Costs: a token's bytes, 16 bytes a key and 8 bytes
/// a key in the index (at most half full), for the process's life; a lookup takes the lock,
/// a hash of the token's bytes and a compare, no allocation. Written here rather than taken
/// from a library (or `Dictionary`, whose `[UInt8]` keys cost an array and a SipHash a
/// byte at every lookup): an open-addressed index of at most 65,566 short byte strings.
final class KeyCodes: @unchecked Sendable {
  /// The table every stored text uses.
  static let shared = KeyCodes(capacity: oneByteCodes + 1 << 16)

  /// How many keys have a one-byte code (`0x01`–`0x1E`); `0x1F` leads a three-byte code.
  static let oneByteCodes = 30
  /// The byte that leads a three-byte code.
  static let wideLead: UInt8 = 0x1F
  /// The longest key token given a code: longer keys stay spelled (a code saves little on
  /// them, and the table keeps every token for the process's life).
  static let longestToken = 256

  /// Each code's token, `count` of them written; room for `capacity`.
  private let tokens: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>
  let capacity: Int
  /// The codes by token's hash, and how many there are; read and written only under the
  /// lock.
  private let codes = Mutex(Index())

  /// An open-addressed index of the codes given: each slot holds a code, or -1; probed
  /// linearly from a token's hash; grown to twice its slots when half full.
  private struct Index {
    var slots = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    var count = 0
  }

  /// A table with room for `capacity` keys (tests make small ones; `shared` is the one
  /// records use).
  init(capacity: Int) {
    precondition(capacity <= Self.oneByteCodes + 1 << 16, "codes of at most three bytes")
    self.capacity = capacity
    tokens = .allocate(capacity: capacity)
  }

  deinit {
    codes.withLock { index in
      for code in 0..<index.count { UnsafeMutableBufferPointer(mutating: tokens[code]).deallocate() }
      index.slots.deallocate()
    }
    tokens.deallocate()
  }

  /// How many keys have a code.
  var count: Int { codes.withLock { $0.count } }

  /// The key token of `code`, which this table gave. O(1), no lock.
  @inline(__always)
  func token(_ code: Int) -> UnsafeBufferPointer<UInt8> { tokens[code] }

  /// The code of the key token `token` (quotes included): the one it has, else the next
  /// number when there is room; `nil` when the table is full or the token is longer than
  /// `longestToken`. Takes the lock; allocates only for a key not met before.
  func code(for token: UnsafeBufferPointer<UInt8>) -> Int? {
    guard token.count <= Self.longestToken else { return nil }
    let hash = Self.hash(token)
    return codes.withLock { index -> Int? in
      var slot = index.slots.isEmpty ? 0 : hash & (index.slots.count &- 1)
      while !index.slots.isEmpty, index.slots[slot] >= 0 {
        let known = Int(index.slots[slot])
        if CanonicalJSON.sameBytes(tokens[known], token) { return known }
        slot = (slot &+ 1) & (index.slots.count &- 1)
      }
      guard index.count < capacity else { return nil }
      let stored = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: token.count)
      _ = stored.initialize(from: token)
      let code = index.count
      tokens[code] = UnsafeBufferPointer(stored)
      index.count += 1
      if index.count &* 2 > index.slots.count {
        grow(&index)
      } else {
        index.slots[slot] = Int32(code)
      }
      return code
    }
  }

  /// `index` with twice its slots (16 at first), every code given placed again (the one
  /// just given too).
  private func grow(_ index: inout Index) {
    let slots = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(16, index.slots.count &* 2))
    slots.initialize(repeating: -1)
    for code in 0..<index.count {
      var slot = Self.hash(tokens[code]) & (slots.count &- 1)
      while slots[slot] >= 0 { slot = (slot &+ 1) & (slots.count &- 1) }
      slots[slot] = Int32(code)
    }
    index.slots.deallocate()
    index.slots = slots
  }

  /// A hash of a token's bytes (FNV-1a, 64 bits, its high bits folded in): keys are a few
  /// bytes, so a byte loop costs less than the setup of a stronger hash.
  @inline(__always)
  private static func hash(_ token: UnsafeBufferPointer<UInt8>) -> Int {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in token { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return Int(truncatingIfNeeded: hash ^ hash &>> 29)
  }

  /// How many bytes `code` is written in.
  @inline(__always)
  static func width(of code: Int) -> Int { code < oneByteCodes ? 1 : 3 }

  /// Writes `code` at `out`; returns how many bytes (`width(of:)`).
  @inline(__always)
  static func write(_ code: Int, at out: UnsafeMutablePointer<UInt8>) -> Int {
    if code < oneByteCodes {
      out.pointee = UInt8(truncatingIfNeeded: code &+ 1)
      return 1
    }
    let wide = code &- oneByteCodes
    out[0] = wideLead
    out[1] = UInt8(truncatingIfNeeded: wide)
    out[2] = UInt8(truncatingIfNeeded: wide &>> 8)
    return 3
  }

  /// The bytes `write(_:at:)` writes for `code`.
  static func bytes(of code: Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: 3) { room, count in
      count = room.baseAddress.map { write(code, at: $0) } ?? 0
    }
  }

  /// The code written at `text[at]`, whose byte is below `0x20`, and its width.
  @inline(__always)
  static func read(_ text: UnsafeBufferPointer<UInt8>, at place: Int) -> (code: Int, width: Int) {
    let lead = text[place]
    guard lead == wideLead else { return (Int(lead) &- 1, 1) }
    return (oneByteCodes &+ (Int(text[place &+ 1]) | Int(text[place &+ 2]) &<< 8), 3)
  }
}
