/// CRC-32 (IEEE 802.3, as zlib computes it), written here so the journal needs
/// no library: each journal record carries one over its sequence number and payload.
///
/// Slicing-by-8: eight tables let the loop take eight bytes per step instead of one
/// (every journaled edit is checksummed; the gain is in docs/PERFORMANCE.md). The
/// tables live in one allocation made once, read through a pointer: a Swift array
/// would check bounds on each of the eight lookups per step.
enum CRC32 {
  /// `tables[k * 256 + b]`: the CRC of byte `b` followed by `k` zero bytes. Written
  /// once while the lazy global is initialized (which Swift makes thread-safe), only
  /// read after: `nonisolated(unsafe)` because a pointer is not `Sendable`.
  nonisolated(unsafe) private static let tables: UnsafePointer<UInt32> = {
    let tables = UnsafeMutablePointer<UInt32>.allocate(capacity: 8 * 256)
    for index in 0..<256 {
      var value = UInt32(index)
      for _ in 0..<8 {
        value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
      }
      tables[index] = value
    }
    for index in 0..<256 {
      for slice in 1..<8 {
        let previous = tables[(slice - 1) * 256 + index]
        tables[slice * 256 + index] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
      }
    }
    return UnsafePointer(tables)
  }()

  static func checksum(_ bytes: UnsafeRawBufferPointer, startingWith seed: UInt32 = 0) -> UInt32 {
    var crc = ~seed
    guard let base = bytes.baseAddress else { return seed }
    let table = tables
    var offset = 0
    while offset + 8 <= bytes.count {
      let low = crc ^ UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
      let high = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
      crc =
        table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
        ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
        ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
        ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
      offset += 8
    }
    while offset < bytes.count {
      crc = table[Int((crc ^ UInt32(base.load(fromByteOffset: offset, as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
      offset += 1
    }
    return ~crc
  }

  static func checksum(_ bytes: [UInt8], startingWith seed: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0, startingWith: seed) }
  }
}

/// A 64-bit hash of a file's bytes, eight bytes at a time, to tell whether a
/// journal belongs to the data file as it is on disk. Not cryptographic: it
/// guards against accidents (the file edited elsewhere), not against an attacker.
enum ContentHash {
  static func of(_ bytes: [UInt8]) -> String {
    var hasher = ContentHasher()
    bytes.withUnsafeBytes { hasher.combine($0) }
    return hasher.finalize()
  }
}

/// `ContentHash` over bytes that come in chunks: a save hashes what it writes as it
/// writes it, before the length is known, so the length is mixed in at the end. The
/// result does not depend on where the chunks are cut.
///
/// Four lanes take the words of each 32-byte block in turn: one lane's multiply waits
/// for the one before, so a single lane ran at the multiply's latency, a few
/// milliseconds per 30 MB loaded or saved; four run side by side.
public struct ContentHasher: Sendable {
  private static let prime: UInt64 = 0x0000_0100_0000_01B3
  private static let basis: UInt64 = 0xCBF2_9CE4_8422_2325
  private var lanes: (UInt64, UInt64, UInt64, UInt64) = (basis, basis ^ 1, basis ^ 2, basis ^ 3)
  private var count = 0
  /// The bytes of an unfinished 32-byte block, and how many there are.
  private var pending: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  private var pendingCount = 0

  public init() {}

  mutating func combine(_ bytes: UnsafeRawBufferPointer) {
    count += bytes.count
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    if pendingCount > 0 {
      let taken = min(32 - pendingCount, bytes.count)
      withUnsafeMutableBytes(of: &pending) { block in
        block.baseAddress?.advanced(by: pendingCount).copyMemory(from: base, byteCount: taken)
      }
      pendingCount += taken
      offset = taken
      guard pendingCount == 32 else { return }
      mixBlock(pending)
      pending = (0, 0, 0, 0)
      pendingCount = 0
    }
    while offset &+ 32 <= bytes.count {
      let block = base + offset
      mixBlock(
        (
          UInt64(littleEndian: block.loadUnaligned(as: UInt64.self)),
          UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
          UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
          UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        ))
      offset &+= 32
    }
    let rest = bytes.count - offset
    if rest > 0 {
      withUnsafeMutableBytes(of: &pending) { block in
        block.baseAddress?.copyMemory(from: base + offset, byteCount: rest)
      }
      pendingCount = rest
    }
  }

  public mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>) {
    combine(UnsafeRawBufferPointer(bytes))
  }

  /// The hash of all bytes combined, as 16 hex digits.
  public func finalize() -> String {
    var hash = Self.mix(Self.mix(Self.mix(lanes.0, lanes.1), lanes.2), lanes.3)
    withUnsafeBytes(of: pending) { block in
      for index in 0..<pendingCount {
        hash = (hash ^ UInt64(block[index])) &* Self.prime
      }
    }
    hash = (hash ^ UInt64(count)) &* Self.prime
    hash ^= hash >> 33
    hash = hash &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 33
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  @inline(__always)
  private mutating func mixBlock(_ words: (UInt64, UInt64, UInt64, UInt64)) {
    lanes = (
      Self.mix(lanes.0, words.0), Self.mix(lanes.1, words.1), Self.mix(lanes.2, words.2),
      Self.mix(lanes.3, words.3)
    )
  }

  @inline(__always)
  private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
    let mixed = (hash ^ word) &* prime
    return mixed ^ mixed >> 29
  }
}
