/// The byte searches the CSV reader spends its time in, eight bytes at a time.
///
/// Each finds the first of a few ASCII bytes from an index on. A word of eight bytes is
/// tested for any of them at once (a byte equal to `b` is a zero byte of `word ^ b…b`, and
/// the lowest byte flagged by the zero-byte test is always a real zero: a false flag only
/// arises above a real one), so a long cell costs a few instructions per eight bytes.
enum CSVScan {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The zero-byte test: a high bit set in each byte of `word` that may be zero, and the
  /// lowest one set only where a byte really is zero.
  @inline(__always)
  private static func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- ones) & ~word & highBits
  }

  @inline(__always)
  private static func word(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64? {
    guard index &+ 8 <= bytes.count, let base = bytes.baseAddress else { return nil }
    return UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
  }

  /// The index of the first `byte` at or after `start`, or `nil`.
  static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = start
    let pattern = UInt64(byte) &* ones
    while let word = word(bytes, at: index) {
      let found = zeroBytes(word ^ pattern)
      if found != 0 { return index &+ found.trailingZeroBitCount &>> 3 }
      index &+= 8
    }
    while index < bytes.count {
      if bytes[index] == byte { return index }
      index &+= 1
    }
    return nil
  }

  /// The index of the first `delimiter`, CR or LF at or after `start`, or `bytes.count`:
  /// where an unquoted cell (or a `.tsv` cell) that starts at `start` ends.
  static func endOfUnquotedCell(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, delimiter: UInt8)
    -> Int
  {
    var index = start
    let delimiters = UInt64(delimiter) &* ones
    let feeds = UInt64(0x0A) &* ones
    let returns = UInt64(0x0D) &* ones
    while let word = word(bytes, at: index) {
      let found = zeroBytes(word ^ delimiters) | zeroBytes(word ^ feeds) | zeroBytes(word ^ returns)
      if found != 0 { return index &+ found.trailingZeroBitCount &>> 3 }
      index &+= 8
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == delimiter || byte == 0x0A || byte == 0x0D { return index }
      index &+= 1
    }
    return index
  }

  /// One past the closing quote of the quoted cell whose opening quote is at `opening`
  /// (`""` inside is a quote, not the end), or `nil` when no quote closes it.
  static func endOfQuotedCell(in bytes: UnsafeBufferPointer<UInt8>, openingAt opening: Int) -> Int? {
    var index = opening + 1
    while let quote = firstIndex(of: UInt8(ascii: "\""), in: bytes, from: index) {
      if quote + 1 < bytes.count, bytes[quote + 1] == UInt8(ascii: "\"") {
        index = quote + 2
      } else {
        return quote + 1
      }
    }
    return nil
  }
}
