import RecordKit

/// The byte-level state machine behind `Tokenizer`: one pass over valid UTF-8, no
/// `Character`s, no recursion.
///
/// Scripts of a million lines go through this, and grapheme breaking is costly
/// (docs/PERFORMANCE.md), so it looks at bytes and makes a `String` only for each
/// finished token: O(n) in the line's bytes. Nested lists are kept on an explicit stack, so deep nesting
/// fails with an error instead of overflowing the call stack.
struct TokenScanner {
  /// The deepest nesting of lists accepted: deep enough for any JSON a user types on a
  /// line, shallow enough that code walking a `ValueToken` recursively stays safe.
  static let maxListDepth = 32

  /// The input, which must be valid UTF-8 (a `String`'s bytes, or validated ones).
  let bytes: UnsafeBufferPointer<UInt8>
  /// The offset of the next unread byte.
  var index = 0
  var line = 1
  /// The offset of the current line's first byte.
  var lineStart = 0
  /// UTF-8 continuation bytes between `lineStart` and `index`: the column is the number
  /// of bytes passed minus these, which counts Unicode scalars.
  var continuationBytes = 0
  private var commands: [TokenizedCommand] = []
  private var tokens: [Token] = []
  /// The lists being read, innermost last.
  var lists: [OpenList] = []

  /// The bytes that mean something to the tokenizer.
  enum ASCII {
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let doubleQuote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let singleQuote = UInt8(ascii: "'")
    static let comma = UInt8(ascii: ",")
    static let semicolon = UInt8(ascii: ";")
    static let openBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let closeBracket = UInt8(ascii: "]")
  }

  /// A list whose `]` has not been read yet.
  struct OpenList {
    var start: Position
    var elements: [ValueToken] = []
    /// Whether the last thing read was an element (so `,` or `]` must come next).
    var afterElement = false
    /// The last comma read, when nothing has followed it yet.
    var pendingComma: Position?
  }

  /// A place in the input, as `Token` and `TokenizerError` report it.
  struct Position {
    var line: Int
    var column: Int
  }

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Where the next unread byte is.
  var position: Position {
    Position(line: line, column: index - lineStart - continuationBytes + 1)
  }

  func error(_ reason: TokenizerError.Reason, at position: Position) -> TokenizerError {
    TokenizerError(reason, line: position.line, column: position.column)
  }

  /// Splits the input into commands up to the first error: the commands finished before it
  /// and the error (a command the error cut short is dropped).
  mutating func scanUntilError() -> TokenizedLine {
    do {
      return TokenizedLine(commands: try scan(), error: nil)
    } catch {
      return TokenizedLine(commands: commands, error: error)
    }
  }

  /// Splits the whole input into commands.
  mutating func scan() throws(TokenizerError) -> [TokenizedCommand] {
    while index < bytes.count {
      switch bytes[index] {
      case ASCII.space, ASCII.tab, ASCII.carriageReturn:
        index += 1
      case ASCII.lineFeed:
        index += 1
        startLine()
        if lists.isEmpty { finishCommand() }
      case ASCII.hash:
        skipComment()
      case ASCII.semicolon:
        guard lists.isEmpty else { throw error(.unexpectedInList(";"), at: position) }
        index += 1
        finishCommand()
      case ASCII.openBracket:
        try openList()
      case ASCII.closeBracket:
        try closeList()
      case ASCII.comma where !lists.isEmpty:
        try readComma()
      case 0x00...0x1F, 0x7F:
        throw error(.controlCharacter(Unicode.Scalar(bytes[index])), at: position)
      default:
        try readWord()
      }
    }
    if let list = lists.last { throw error(.unterminatedList, at: list.start) }
    finishCommand()
    return commands
  }

  /// Counts a line feed just passed: the next byte starts line `line + 1`, column 1.
  mutating func startLine() {
    line += 1
    lineStart = index
    continuationBytes = 0
  }

  private mutating func finishCommand() {
    guard !tokens.isEmpty else { return }
    commands.append(TokenizedCommand(tokens))
    tokens = []
  }

  /// Skips a `#` comment up to (not including) the line feed that ends it.
  private mutating func skipComment() {
    while index < bytes.count, bytes[index] != ASCII.lineFeed { index += 1 }
  }

  /// Adds a finished value to the innermost open list, or to the command.
  mutating func add(_ value: consuming ValueToken, at start: Position, parts: [WordPart] = []) {
    if lists.isEmpty {
      if tokens.isEmpty { tokens.reserveCapacity(8) }
      tokens.append(Token(value, line: start.line, column: start.column, parts: parts))
    } else {
      lists[lists.count - 1].elements.append(value)
      lists[lists.count - 1].afterElement = true
      lists[lists.count - 1].pendingComma = nil
    }
  }

  /// The text of `range`, which lies between scalar boundaries of the (valid) input, so
  /// it is taken without validating it again (validating each token again was a
  /// measurable share of tokenizing a line; docs/PERFORMANCE.md).
  func text(_ range: Range<Int>, isASCII: Bool = false) -> String {
    let slice = UnsafeBufferPointer(rebasing: bytes[range])
    return String(copying: UTF8Span(unchecked: Span(_unsafeElements: slice), isKnownASCII: isASCII))
  }

  /// Whether no non-ASCII byte was passed since `line` and `continuationBytes` had these
  /// values: every non-ASCII scalar has a continuation byte.
  func isASCIISince(line: Int, continuationBytes: Int) -> Bool {
    self.line == line && self.continuationBytes == continuationBytes
  }

  /// The scalar whose encoding starts at `offset`, for error messages.
  func scalar(at offset: Int) -> Unicode.Scalar {
    var end = offset + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    return text(offset..<end).unicodeScalars.first ?? "\u{FFFD}"
  }
}
