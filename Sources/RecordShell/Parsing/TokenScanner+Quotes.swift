/// Quoted strings: `'raw'` ones, and `"escaped"` ones with a fast path for the common
/// string without escapes, which becomes a `String` straight from its bytes.
///
/// Both kinds may hold raw line feeds, so that a string continued on the next line of
/// the interactive shell (joined with "\n") keeps the line break and the lines and
/// columns after it stay right.
extension TokenScanner {
  /// Reads the `'…'` string at the current byte. No escapes: a `'` cannot be inside one
  /// (a double-quoted string can hold it), and a `\` is just a backslash.
  mutating func readSingleQuoted() throws(TokenizerError) -> String {
    let open = position
    index += 1
    if let text = scanPlain(to: ASCII.singleQuote, stoppingAtBackslash: false) { return text }
    throw error(.unterminatedString, at: open)
  }

  /// Reads the `"…"` string at the current byte, resolving its escapes.
  mutating func readDoubleQuoted() throws(TokenizerError) -> String {
    let open = position
    index += 1
    let begin = index
    if let text = scanPlain(to: ASCII.doubleQuote, stoppingAtBackslash: true) { return text }
    var unescaped = Array(UnsafeBufferPointer(rebasing: bytes[begin..<index]))
    while index < bytes.count {
      let byte = bytes[index]
      if byte == ASCII.doubleQuote {
        index += 1
        return String(decoding: unescaped, as: UTF8.self)
      }
      if byte == ASCII.backslash {
        try unescape(into: &unescaped, stringStart: open)
      } else {
        unescaped.append(byte)
        pass(byte)
      }
    }
    throw error(.unterminatedString, at: open)
  }

  /// The fast path of both quotes: from just after the opening quote to `quote`,
  /// the text straight from its bytes. `nil` when it stops first, at the end of
  /// the input or (for `"…"`) at a backslash, with the index there.
  private mutating func scanPlain(to quote: UInt8, stoppingAtBackslash: Bool) -> String? {
    let begin = index
    let (lineBefore, continuationsBefore) = (line, continuationBytes)
    while index < bytes.count {
      let byte = bytes[index]
      if byte == quote {
        index += 1
        return text(
          begin..<index - 1, isASCII: isASCIISince(line: lineBefore, continuationBytes: continuationsBefore))
      }
      if stoppingAtBackslash && byte == ASCII.backslash { return nil }
      pass(byte)
    }
    return nil
  }

  /// Steps over one byte inside a string, keeping the line and column count.
  @inline(__always)
  private mutating func pass(_ byte: UInt8) {
    index += 1
    if byte == ASCII.lineFeed {
      startLine()
    } else if byte & 0xC0 == 0x80 {
      continuationBytes += 1
    }
  }

  /// Appends what the escape at the current byte (a `\`) stands for and steps over it.
  /// Input that ends inside the escape leaves the string unterminated, so that the
  /// interactive shell asks for the rest.
  private mutating func unescape(into unescaped: inout [UInt8], stringStart: Position)
    throws(TokenizerError)
  {
    let backslash = position
    guard index + 1 < bytes.count else { throw error(.unterminatedString, at: stringStart) }
    let replacement: UInt8
    switch bytes[index + 1] {
    case ASCII.doubleQuote: replacement = ASCII.doubleQuote
    case ASCII.singleQuote: replacement = ASCII.singleQuote
    case ASCII.backslash: replacement = ASCII.backslash
    case UInt8(ascii: "n"): replacement = ASCII.lineFeed
    case UInt8(ascii: "t"): replacement = ASCII.tab
    case UInt8(ascii: "r"): replacement = ASCII.carriageReturn
    case UInt8(ascii: "0"): replacement = 0
    case UInt8(ascii: "u"):
      let scalar = try unicodeEscape(at: backslash, stringStart: stringStart)
      UTF8.encode(scalar) { unescaped.append($0) }
      return
    default:
      throw error(.unknownEscape(scalar(at: index + 1)), at: backslash)
    }
    unescaped.append(replacement)
    index += 2
  }

  /// Reads `\u{…}` (one to six hex digits) at the current byte and steps over it.
  private mutating func unicodeEscape(at backslash: Position, stringStart: Position)
    throws(TokenizerError) -> Unicode.Scalar
  {
    var cursor = index + 2
    guard cursor < bytes.count else { throw error(.unterminatedString, at: stringStart) }
    guard bytes[cursor] == UInt8(ascii: "{") else { throw error(.malformedUnicodeEscape, at: backslash) }
    cursor += 1
    var value: UInt32 = 0
    var digits = 0
    while cursor < bytes.count, let digit = Self.hexValue(bytes[cursor]) {
      guard digits < 6 else { throw error(.malformedUnicodeEscape, at: backslash) }
      value = value << 4 | digit
      digits += 1
      cursor += 1
    }
    guard cursor < bytes.count else { throw error(.unterminatedString, at: stringStart) }
    guard digits > 0, bytes[cursor] == UInt8(ascii: "}") else {
      throw error(.malformedUnicodeEscape, at: backslash)
    }
    guard let scalar = Unicode.Scalar(value) else {
      throw error(.invalidUnicodeScalar(value), at: backslash)
    }
    index = cursor + 1
    return scalar
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }
}
