/// CRC-32 (IEEE 802.3, as zlib computes it), written here so the journal needs
/// no library: each journal record carries one over its sequence number and payload.
enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 {
      value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
    }
    return value
  }

  static func checksum(_ bytes: UnsafeRawBufferPointer, startingWith seed: UInt32 = 0) -> UInt32 {
    var crc = ~seed
    for byte in bytes {
      crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
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
public struct ContentHasher: Sendable {
  private static let prime: UInt64 = 0x0000_0100_0000_01B3
  private var hash: UInt64 = 0xCBF2_9CE4_8422_2325
  private var count = 0
  /// The bytes of an unfinished eight-byte word (little-endian), and how many there are.
  private var pending: UInt64 = 0
  private var pendingCount = 0

  public init() {}

  public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    if pendingCount > 0 {
      while pendingCount < 8, offset < bytes.count {
        pending |= UInt64(bytes[offset]) << (8 * UInt64(pendingCount))
        pendingCount += 1
        offset += 1
      }
      guard pendingCount == 8 else {
        count += bytes.count
        return
      }
      mix(pending)
      pending = 0
      pendingCount = 0
    }
    if let base = bytes.baseAddress {
      while offset &+ 8 <= bytes.count {
        mix(UInt64(littleEndian: (base + offset).loadUnaligned(as: UInt64.self)))
        offset &+= 8
      }
    }
    while offset < bytes.count {
      pending |= UInt64(bytes[offset]) << (8 * UInt64(pendingCount))
      pendingCount += 1
      offset += 1
    }
    count += bytes.count
  }

  public mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>) {
    combine(UnsafeRawBufferPointer(bytes))
  }

  /// The hash of all bytes combined, as 16 hex digits.
  public func finalize() -> String {
    var hash = self.hash
    for index in 0..<pendingCount {
      hash = (hash ^ (pending >> (8 * UInt64(index)) & 0xFF)) &* Self.prime
    }
    hash = (hash ^ UInt64(count)) &* Self.prime
    hash ^= hash >> 33
    hash = hash &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 33
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  @inline(__always)
  private mutating func mix(_ word: UInt64) {
    hash = (hash ^ word) &* Self.prime
    hash ^= hash >> 29
  }
}
