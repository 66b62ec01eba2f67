/// String tokens: a fast path for the common string without escapes, which becomes a
/// `String` straight from its bytes, and a slower one that unescapes into a buffer.
extension JSONReader {
  /// Reads the string token that starts at the current byte (a `"`).
  mutating func readStringToken() throws(JSONSyntaxError) -> String {
    try withStringToken { text, isASCII in
      isASCII ? UTF8Validation.asciiString(text) : UTF8Validation.knownValidString(text)
    }
  }

  /// Reads the string token that starts at the current byte (a `"`) and returns what
  /// `body` makes of its text: its UTF-8 bytes, unescaped and checked (in place when it
  /// has no escape), and whether they are all ASCII. The bytes are valid only during
  /// `body`. What a value kept as bytes (`BlockText`) is read with: no `String` made.
  mutating func withStringToken<Result>(_ body: (UnsafeBufferPointer<UInt8>, Bool) -> Result)
    throws(JSONSyntaxError) -> Result
  {
    let start = index + 1
    var sawNonASCII = false
    let stop = JSONStringScan.firstSpecial(in: bytes, from: start, sawNonASCII: &sawNonASCII)
    guard stop < bytes.count else { throw syntaxError(.unexpectedEndOfInput(.string), at: stop) }
    switch bytes[stop] {
    case UInt8(ascii: "\""):
      if sawNonASCII, let offset = UTF8Validation.firstInvalidOffset(in: bytes, start..<stop) {
        throw syntaxError(.invalidUTF8(offset: offset), at: offset)
      }
      index = stop + 1
      return body(UnsafeBufferPointer(rebasing: bytes[start..<stop]), !sawNonASCII)
    case UInt8(ascii: "\\"):
      let isASCII = try readEscapedString(from: start, firstEscape: stop, sawNonASCII: sawNonASCII)
      return scratch.withUnsafeBufferPointer { body($0, isASCII) }
    default:
      throw syntaxError(.controlCharacterInString(Unicode.Scalar(bytes[stop])), at: stop)
    }
  }

  mutating func invalidUTF8(in range: Range<Int>) -> JSONSyntaxError {
    let offset = UTF8Validation.firstInvalidOffset(in: bytes, range) ?? range.lowerBound
    return syntaxError(.invalidUTF8(offset: offset), at: offset)
  }

  /// Reads the rest of a string that has an escape at `firstEscape`, unescaping into
  /// `scratch`; returns whether what it holds is all ASCII. Raw bytes are validated once at the end;
  /// escapes always make valid UTF-8 (lone surrogates are refused), so a failure points
  /// at a raw byte in the source.
  private mutating func readEscapedString(from start: Int, firstEscape: Int, sawNonASCII: Bool)
    throws(JSONSyntaxError) -> Bool
  {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<firstEscape]))
    var sawNonASCII = sawNonASCII
    var cursor = try unescape(at: firstEscape)
    while true {
      let stop = JSONStringScan.firstSpecial(in: bytes, from: cursor, sawNonASCII: &sawNonASCII)
      guard stop < bytes.count else { throw syntaxError(.unexpectedEndOfInput(.string), at: stop) }
      scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cursor..<stop]))
      switch bytes[stop] {
      case UInt8(ascii: "\""):
        index = stop + 1
        let valid =
          !sawNonASCII
          || scratch.withUnsafeBufferPointer {
            UTF8Validation.firstInvalidOffset(in: $0, 0..<$0.count) == nil
          }
        guard valid else { throw invalidUTF8(in: start..<stop) }
        // (An escape such as `\u00e9` makes non-ASCII bytes from ASCII ones.)
        return !sawNonASCII && !scratch.contains { $0 >= 0x80 }
      case UInt8(ascii: "\\"):
        cursor = try unescape(at: stop)
      default:
        throw syntaxError(.controlCharacterInString(Unicode.Scalar(bytes[stop])), at: stop)
      }
    }
  }

  /// Appends what the escape at `offset` (a `\`) stands for; returns the offset after it.
  private mutating func unescape(at offset: Int) throws(JSONSyntaxError) -> Int {
    guard offset + 1 < bytes.count else {
      throw syntaxError(.unexpectedEndOfInput(.string), at: bytes.count)
    }
    let replacement: UInt8
    switch bytes[offset + 1] {
    case UInt8(ascii: "\""): replacement = 0x22
    case UInt8(ascii: "\\"): replacement = 0x5C
    case UInt8(ascii: "/"): replacement = 0x2F
    case UInt8(ascii: "b"): replacement = 0x08
    case UInt8(ascii: "f"): replacement = 0x0C
    case UInt8(ascii: "n"): replacement = 0x0A
    case UInt8(ascii: "r"): replacement = 0x0D
    case UInt8(ascii: "t"): replacement = 0x09
    case UInt8(ascii: "u"): return try unescapeUnicode(at: offset)
    default:
      guard let found = UTF8Validation.scalar(in: bytes, at: offset + 1) else {
        throw syntaxError(.invalidUTF8(offset: offset + 1), at: offset + 1)
      }
      throw syntaxError(.invalidEscape(found), at: offset)
    }
    scratch.append(replacement)
    return offset + 2
  }

  /// Handles `\uXXXX` at `offset`, pairing a high surrogate with the low one that must follow.
  private mutating func unescapeUnicode(at offset: Int) throws(JSONSyntaxError) -> Int {
    let unit = try hexQuad(at: offset)
    var value = UInt32(unit)
    var next = offset + 6
    switch unit {
    case 0xD800...0xDBFF:
      guard next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u")
      else { throw syntaxError(.loneSurrogate(unit), at: offset) }
      let low = try hexQuad(at: next)
      guard (0xDC00...0xDFFF).contains(low) else { throw syntaxError(.loneSurrogate(unit), at: offset) }
      value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
      next += 6
    case 0xDC00...0xDFFF:
      throw syntaxError(.loneSurrogate(unit), at: offset)
    default:
      break
    }
    appendUTF8(value)
    return next
  }

  /// The four hex digits of the `\u` escape at `offset`.
  private mutating func hexQuad(at offset: Int) throws(JSONSyntaxError) -> UInt16 {
    var unit: UInt16 = 0
    for cursor in offset + 2..<offset + 6 {
      guard cursor < bytes.count else {
        throw syntaxError(.unexpectedEndOfInput(.string), at: bytes.count)
      }
      let byte = bytes[cursor]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw syntaxError(.invalidUnicodeEscape, at: offset)
      }
      unit = unit << 4 | UInt16(digit)
    }
    return unit
  }

  private mutating func appendUTF8(_ value: UInt32) {
    switch value {
    case 0..<0x80:
      scratch.append(UInt8(value))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | value >> 6))
      scratch.append(UInt8(0x80 | value & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | value >> 12))
      scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | value >> 18))
      scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    }
  }
}
