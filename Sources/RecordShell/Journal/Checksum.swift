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
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
    let prime: UInt64 = 0x0000_0100_0000_01B3
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset + 8 <= raw.count {
        let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        hash = (hash ^ word) &* prime
        hash ^= hash >> 29
        offset += 8
      }
      while offset < raw.count {
        hash = (hash ^ UInt64(raw[offset])) &* prime
        offset += 1
      }
    }
    hash ^= hash >> 33
    hash = hash &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 33
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
