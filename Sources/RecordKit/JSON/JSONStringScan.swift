/// Finds the bytes of a string that need attention, eight at a time.
///
/// Both the reader and the writer treat the same bytes specially inside strings: `"`,
/// `\` and the control characters below U+0020. Text between them is copied as is, so
/// finding them fast is most of the work for long strings; a word-at-a-time (SWAR)
/// scan does it without per-byte branches.
enum JSONStringScan {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The offset of the first `"`, `\` or control byte at or after `start`, or
  /// `bytes.count`; sets `sawNonASCII` if a byte it passed over is 0x80 or above.
  @inline(__always)
  static func firstSpecial(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, sawNonASCII: inout Bool
  ) -> Int {
    var cursor = start
    let end = bytes.count
    if let base = bytes.baseAddress {
      var seen: UInt64 = 0
      while cursor &+ 8 <= end {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self))
        let special = specialBytes(word)
        if special != 0 {
          let stop = cursor &+ special.trailingZeroBitCount &>> 3
          seen |= word & ((1 &<< UInt64((stop &- cursor) &* 8)) &- 1)
          cursor = stop
          if seen & highBits != 0 { sawNonASCII = true }
          return cursor
        }
        seen |= word
        cursor &+= 8
      }
      if seen & highBits != 0 { sawNonASCII = true }
    }
    while cursor < end {
      let byte = bytes[cursor]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return cursor }
      if byte >= 0x80 { sawNonASCII = true }
      cursor += 1
    }
    return end
  }

  /// A mask with the high bit set in (at least) the lowest byte of `word` that is `"`,
  /// `\` or below 0x20. Higher flags may be false positives (borrows), so callers use
  /// only the lowest; bytes of 0x80 and above are never flagged.
  @inline(__always)
  static func specialBytes(_ word: UInt64) -> UInt64 {
    let quote = zeroBytes(word ^ (ones &* 0x22))
    let backslash = zeroBytes(word ^ (ones &* 0x5C))
    let control = (word &- ones &* 0x20) & ~word & highBits
    return quote | backslash | control
  }

  @inline(__always)
  private static func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- ones) & ~word & highBits
  }
}
