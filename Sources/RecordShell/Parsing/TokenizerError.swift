/// Why a line cannot be split into tokens, and where.
///
/// The reason is an enum with its context as values, worded in one `switch`
/// (`message`), so that tests match on cases and the shell prints one form.
public struct TokenizerError: Error, Equatable, Sendable, CustomStringConvertible {
  public var reason: Reason
  /// The 1-based line in the tokenized text (above 1 only for multi-line input).
  var line: Int
  /// The 1-based column, in Unicode scalars, of what is wrong: the opening quote of an
  /// unterminated string, the `[` of an unterminated list, the `\` of a bad escape.
  var column: Int

  init(_ reason: Reason, line: Int = 1, column: Int) {
    self.reason = reason
    self.line = line
    self.column = column
  }

  public enum Reason: Equatable, Hashable, Sendable {
    case unterminatedString
    case unterminatedList
    /// A `\` in a double-quoted string followed by something that is not an escape.
    case unknownEscape(Unicode.Scalar)
    /// A `\u` not followed by `{`, one to six hex digits and `}`.
    case malformedUnicodeEscape
    /// A well-formed `\u{…}` whose number is a surrogate or above U+10FFFF.
    case invalidUnicodeScalar(UInt32)
    /// Bytes that are not UTF-8, at this 0-based byte offset of the input.
    case invalidUTF8(offset: Int)
    case controlCharacter(Unicode.Scalar)
    /// A `]` with no list open.
    case unexpectedClosingBracket
    /// A `,` or `;` in a list where it cannot go (`[,]`, `[a,,b]`, `[a; b]`).
    case unexpectedInList(Unicode.Scalar)
    /// A `,` right before the `]` that closes a list; reported at the comma.
    case trailingComma
    /// Two list elements with no comma between them; reported at the second.
    case missingComma
    /// A `[` glued to the end of a word, as in `a[b]`.
    case listInsideWord
    /// Something glued to the `]` that closes a list, as in `[a]b`.
    case unexpectedAfterList(Unicode.Scalar)
    /// Lists nested deeper than the limit.
    case tooDeep(limit: Int)
  }

  /// `column 12: unterminated string`, with the line in front when it is not the first.
  public var description: String {
    line == 1 ? "column \(column): \(message)" : "line \(line), column \(column): \(message)"
  }

  /// The reason in words: lowercase, input text in quotes.
  var message: String {
    switch reason {
    case .unterminatedString: "unterminated string"
    case .unterminatedList: "unterminated list"
    case .unknownEscape(let scalar):
      Self.isVisible(scalar)
        ? "unknown escape \\\(scalar)" : "unknown escape: '\\' followed by \(Self.codePoint(scalar))"
    case .malformedUnicodeEscape: "malformed unicode escape: expected \\u{…} with 1 to 6 hex digits"
    case .invalidUnicodeScalar(let value): "\\u{\(Self.hex(value))} is not a unicode scalar value"
    case .invalidUTF8(let offset): "invalid UTF-8 at byte offset \(offset)"
    case .controlCharacter(let scalar): "unexpected control character \(Self.codePoint(scalar))"
    case .unexpectedClosingBracket: "unexpected ']' with no list open"
    case .unexpectedInList(let scalar): "unexpected \(Self.describe(scalar)) in a list"
    case .trailingComma: "trailing comma before ']'"
    case .missingComma: "expected ',' or ']' after a list element"
    case .listInsideWord: "unexpected '[' inside a word"
    case .unexpectedAfterList(let scalar): "unexpected \(Self.describe(scalar)) right after ']'"
    case .tooDeep(let limit): "lists nested deeper than \(limit) levels"
    }
  }

  /// `'x'` for a visible character, `U+00A0` for an invisible one, so that a stray
  /// no-break space or escape character is never shown as a blank.
  private static func describe(_ scalar: Unicode.Scalar) -> String {
    if scalar == "'" { return "\"'\"" }
    return isVisible(scalar) ? "'\(scalar)'" : codePoint(scalar)
  }

  private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return (0x21...0x7E).contains(scalar.value) }
    switch scalar.properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
      .privateUse, .surrogate, .unassigned, .nonspacingMark, .enclosingMark, .spacingMark:
      return false
    default:
      return true
    }
  }

  private static func codePoint(_ scalar: Unicode.Scalar) -> String {
    "U+" + String(repeating: "0", count: max(0, 4 - hex(scalar.value).count)) + hex(scalar.value)
  }

  private static func hex(_ value: UInt32) -> String {
    String(value, radix: 16, uppercase: true)
  }
}
