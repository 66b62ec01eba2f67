/// UTF-8 checks for the reader: a fast one for strings, byte-level ones for errors.
///
/// The rules are the Unicode ones (Table 3-7): no overlong forms, no encoded
/// surrogates, nothing past U+10FFFF, no truncated sequences.
package enum UTF8Validation {
  /// The string for `buffer`, or `nil` if it is not valid UTF-8.
  ///
  /// Validated here, then made without a second check: the standard library's
  /// validation (`UTF8Span(validating:)`) goes byte by byte, while most bytes of such
  /// text are ASCII, which this skips eight at a time (docs/PERFORMANCE.md).
  static func string(_ buffer: UnsafeBufferPointer<UInt8>) -> String? {
    guard firstInvalidOffset(in: buffer, 0..<buffer.count) == nil else { return nil }
    return String(copying: UTF8Span(unchecked: Span(_unsafeElements: buffer), isKnownASCII: false))
  }

  /// The string for `buffer`, which holds valid UTF-8 by construction (canonical text,
  /// `CanonicalJSON`, is made only from checked bytes and from strings): not checked again.
  package static func knownValidString(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
    String(copying: UTF8Span(unchecked: Span(_unsafeElements: buffer), isKnownASCII: false))
  }

  /// The string for `buffer`, which the caller has checked holds only ASCII bytes.
  ///
  /// `String(decoding:as:)` validates its input again, and that was a tenth of a load;
  /// ASCII is always valid UTF-8, so the check is skipped, not the safety it provides.
  static func asciiString(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
    assert(buffer.allSatisfy { $0 < 0x80 }, "asciiString(_:) given a non-ASCII byte")
    return String(copying: UTF8Span(unchecked: Span(_unsafeElements: buffer), isKnownASCII: true))
  }

  /// How many bytes at the front of `bytes` are ASCII: eight at a time while none of them
  /// has its high bit, then one at a time. O(that count).
  @inline(__always)
  package static func asciiPrefixCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    if let base = bytes.baseAddress {
      while count + 8 <= bytes.count,
        UnsafeRawPointer(base + count).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        count += 8
      }
    }
    while count < bytes.count, bytes[count] < 0x80 { count += 1 }
    return count
  }

  /// The length of the well-formed sequence that starts at `offset`, or `nil`.
  static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
    func continues(_ index: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
      index < bytes.count && range.contains(bytes[index])
    }
    let lead = bytes[offset]
    switch lead {
    case 0x00...0x7F:
      return 1
    case 0xC2...0xDF:
      return continues(offset + 1) ? 2 : nil
    case 0xE0, 0xE1...0xEC, 0xED, 0xEE...0xEF:
      let second: ClosedRange<UInt8> =
        lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
      return continues(offset + 1, second) && continues(offset + 2) ? 3 : nil
    case 0xF0...0xF4:
      let second: ClosedRange<UInt8> =
        lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
      return continues(offset + 1, second) && continues(offset + 2) && continues(offset + 3)
        ? 4 : nil
    default:
      return nil
    }
  }

  /// The offset of the first byte in `range` that does not start a well-formed sequence
  /// lying wholly inside `range`.
  static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var index = range.lowerBound
    while index < range.upperBound {
      if index &+ 8 <= range.upperBound, let base = bytes.baseAddress,
        UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index &+= 8
        continue
      }
      guard let length = sequenceLength(in: bytes, at: index), index + length <= range.upperBound
      else { return index }
      index += length
    }
    return nil
  }

  /// The scalar whose well-formed encoding starts at `offset`, or `nil` for a bad sequence.
  static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Unicode.Scalar? {
    guard let length = sequenceLength(in: bytes, at: offset) else { return nil }
    let lead = UInt32(bytes[offset])
    var value: UInt32
    switch length {
    case 1: value = lead
    case 2: value = lead & 0x1F
    case 3: value = lead & 0x0F
    default: value = lead & 0x07
    }
    for index in offset + 1..<offset + length {
      value = value << 6 | UInt32(bytes[index] & 0x3F)
    }
    return Unicode.Scalar(value)
  }
}
