/// Why a document is not JSON that recsh accepts, and where.
///
/// The reason is an enum with its context as values, worded in one `switch`
/// (`message`), so that tests can match on cases and the executable prints one
/// form: `FILE:LINE:COLUMN: error: MESSAGE`.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  var reason: Reason
  /// Where the problem is: 1-based line and column (in Unicode scalars) and 0-based byte offset.
  public var position: JSONPosition

  var line: Int { position.line }
  var column: Int { position.column }
  public var offset: Int { position.offset }

  init(_ reason: Reason, at position: JSONPosition) {
    self.reason = reason
    self.position = position
  }

  /// `LINE:COLUMN: MESSAGE`; the caller puts the file name in front.
  public var description: String { "\(position): \(message)" }

  enum Reason: Equatable, Hashable, Sendable {
    case emptyDocument
    /// The file starts like UTF-16 or UTF-32 (named here); recsh reads UTF-8 only.
    case unsupportedEncoding(String)
    case unexpectedEndOfInput(Context)
    case unexpectedCharacter(Unicode.Scalar, expected: Expectation)
    case unexpectedAfterDocument(Unicode.Scalar)
    /// A comma right before the closing bracket or brace named here.
    case trailingComma(before: Unicode.Scalar)
    case duplicateKey(String)
    case invalidUTF8(offset: Int)
    case controlCharacterInString(Unicode.Scalar)
    case invalidEscape(Unicode.Scalar)
    case invalidUnicodeEscape
    /// A `\uXXXX` escape of a UTF-16 surrogate without its partner.
    case loneSurrogate(UInt16)
    case leadingZero
    case missingDigit(NumberPart)
    case invalidLiteral(expected: String)
    case comment
    case tooDeep(limit: Int)
    /// A pull-API caller asked for one kind of value and the document has another.
    case typeMismatch(expected: JSONReader.Kind, found: JSONReader.Kind)
    /// JSON Lines: a value that goes on past the end of its line, to line `endLine`.
    case valueSpansLines(endLine: Int)
    /// JSON Lines: the last line, with no line break, ends inside its value.
    case unfinishedLastLine
    /// JSON Lines: something other than whitespace after a line's value.
    case expectedLineBreak(Unicode.Scalar)
  }

  /// What the reader was inside when the input ended.
  enum Context: Equatable, Hashable, Sendable {
    case document, string, array, object
  }

  /// What the reader was looking for when it found something else.
  enum Expectation: Equatable, Hashable, Sendable {
    case value, arrayElementEnd, objectMemberEnd, key, colon
  }

  /// The part of a number that lacks its digit.
  enum NumberPart: Equatable, Hashable, Sendable {
    case minusSign, decimalPoint, exponent
  }

  /// The reason in words: lowercase, document text in quotes.
  public var message: String {
    switch reason {
    case .emptyDocument:
      "empty document"
    case .unsupportedEncoding(let encoding):
      "the file is \(encoding), not UTF-8"
    case .unexpectedEndOfInput(let context):
      switch context {
      case .document: "unexpected end of input"
      case .string: "unexpected end of input in string"
      case .array: "unexpected end of input in array"
      case .object: "unexpected end of input in object"
      }
    case .unexpectedCharacter(let found, let expected):
      "\(Self.words(for: expected)), found \(Self.describe(found))"
    case .unexpectedAfterDocument(let found):
      "unexpected \(Self.describe(found)) after the document"
    case .trailingComma(let closer):
      "trailing comma before '\(closer)'"
    case .duplicateKey(let key):
      "duplicate key \(Self.quote(key))"
    case .invalidUTF8(let offset):
      "invalid UTF-8 at byte offset \(offset)"
    case .controlCharacterInString(let scalar):
      "unescaped control character \(Self.codePoint(scalar)) in string"
    case .invalidEscape(let scalar):
      if Self.isPrintableASCII(scalar) {
        "invalid escape '\\\(scalar)' in string"
      } else {
        "invalid escape: '\\' followed by \(Self.describe(scalar)) in string"
      }
    case .invalidUnicodeEscape:
      "invalid \\u escape in string: expected 4 hex digits"
    case .loneSurrogate(let unit):
      "lone surrogate \\u\(Self.hex(UInt32(unit))) in string"
    case .leadingZero:
      "leading zero in number"
    case .missingDigit(let part):
      switch part {
      case .minusSign: "expected a digit after '-' in number"
      case .decimalPoint: "expected a digit after '.' in number"
      case .exponent: "expected a digit in the exponent of number"
      }
    case .invalidLiteral(let expected):
      "invalid literal, expected '\(expected)'"
    case .comment:
      "comments are not allowed in JSON"
    case .tooDeep(let limit):
      "nesting deeper than \(limit) levels"
    case .typeMismatch(let expected, let found):
      "expected \(expected), found \(found)"
    case .valueSpansLines(let endLine):
      "the value goes on to line \(endLine); JSON Lines holds each value on one line"
    case .unfinishedLastLine:
      "the last line ends inside its value (the file ends with no line break, mid-value)"
    case .expectedLineBreak(let found):
      "expected the end of the line after the value, found \(Self.describe(found))"
    }
  }

  private static func words(for expectation: Expectation) -> String {
    switch expectation {
    case .value: "expected a value"
    case .arrayElementEnd: "expected ',' or ']' after an array element"
    case .objectMemberEnd: "expected ',' or '}' after an object member"
    case .key: "expected a string key"
    case .colon: "expected ':' after an object key"
    }
  }

  /// `'x'` for visible ASCII, `U+00E9 'é'` for other visible characters, `U+00A0` for the
  /// invisible ones, so a stray no-break space or NUL is never shown as a blank.
  static func describe(_ scalar: Unicode.Scalar) -> String {
    if scalar == "'" { return "\"'\"" }
    if isPrintableASCII(scalar) { return "'\(scalar)'" }
    if scalar.isASCII { return codePoint(scalar) }
    switch scalar.properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
      .privateUse, .surrogate, .unassigned, .nonspacingMark, .enclosingMark, .spacingMark:
      return codePoint(scalar)
    default:
      return "\(codePoint(scalar)) '\(scalar)'"
    }
  }

  /// A key in double quotes with JSON escapes, so control characters stay visible.
  static func quote(_ key: String) -> String {
    var writer = JSONWriter()
    writer.string(key)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  private static func isPrintableASCII(_ scalar: Unicode.Scalar) -> Bool {
    (0x21...0x7E).contains(scalar.value)
  }

  private static func codePoint(_ scalar: Unicode.Scalar) -> String {
    "U+\(hex(scalar.value))"
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
