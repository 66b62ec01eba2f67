/// A strict, byte-level RFC 8259 JSON reader with a pull API and a tree API.
///
/// Why not Foundation's `JSONDecoder`/`JSONSerialization`: their errors have no line or
/// column, they accept trailing commas, silently keep one of two duplicate keys, lose
/// number spellings and key order, and run at about 25–35 MB/s. recsh promises that a
/// file survives a load and save unchanged and that a bad file is refused with
/// `FILE:LINE:COLUMN`, so it reads bytes itself.
///
/// Use the pull API (`readArray`, `readObject`, `readString`, …) to decode records
/// straight from the bytes without building a `JSONValue` tree, or `parseDocument` for
/// the whole tree. A reader is a cursor over borrowed bytes: make one with
/// `withReader(over:_:)`; after it throws, it is not to be used again.
///
/// Decisions, each tested against JSONTestSuite (`i_*` files) and the team corpus:
/// - **Strict grammar.** No trailing commas, comments, single quotes, `NaN`/`Infinity`,
///   leading zeros, `+1` or `.5`; whitespace is only space, tab, LF and CR.
/// - **No duplicate keys.** JSON allows them, but keeping either value silently loses
///   the other; the error names the key at the position of the second one. Keys are
///   compared by their UTF-8 bytes, so `"é"` (NFC) and `"e\u0301"` (NFD) are two keys.
/// - **Nesting limit of 256** arrays and objects, checked before descending, so that
///   100,000 `[` are refused quickly instead of overflowing the stack.
/// - **Lone or mispaired surrogate escapes** (`\uD800`) are refused: a Swift `String`
///   cannot hold them, so keeping them would silently change the data.
/// - **Invalid UTF-8** (overlong forms, encoded surrogates, truncated sequences, bytes
///   past U+10FFFF) is refused wherever it is, naming its byte offset. Files that start
///   like UTF-16 or UTF-32 are refused as such.
/// - **A UTF-8 byte-order mark** is skipped at the very start (RFC 8259 §8.1 allows
///   ignoring it); anywhere else it is the character U+FEFF: kept inside strings, an
///   error outside them.
/// - **Numbers** are checked against the grammar and kept as spelled, so huge
///   exponents (`1e999`), 100-digit integers and `-0.0` are accepted and written back
///   unchanged; converting them is the caller's business.
/// - **Any value at the top level** (RFC 8259 dropped the object-or-array rule);
///   only whitespace may follow it.
public struct JSONReader {
  /// The deepest nesting of arrays and objects accepted.
  static let maxDepth = 256

  /// The borrowed document; valid for as long as the `withReader` call that made it.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The offset of the next unread byte.
  var index: Int
  /// Where the text starts: 3 after a UTF-8 byte-order mark, otherwise 0.
  let textStart: Int
  /// Where the value most recently peeked or read starts (or the key, inside `readObject`).
  var tokenStart: Int
  var depth = 0
  var hasStarted = false
  /// Reused buffer for strings with escapes, so that unescaping allocates once per reader.
  var scratch: [UInt8] = []
  /// The keys of the objects being read, innermost last (see `JSONKeySet`).
  var keyStack: [String] = []
  /// The keys without escapes of the objects `readCanonical` is reading, as ranges of
  /// `bytes` (see `CanonicalKeys`).
  var rawKeyStack: [Range<Int>] = []
  /// The keys of a record read before, which a record's keys are first compared with
  /// (`KeyShape`).
  var recordShape = KeyShape()
  /// Elements and members of the containers being built, innermost last: each container
  /// is then made once at its exact size instead of growing its own array.
  var valueStack: [JSONValue] = []
  var memberStack: [JSONObject.Member] = []
  /// The last position computed, so that positions asked in document order cost linear time.
  var lastPosition: JSONPosition

  /// A reader over bytes the caller keeps alive (a mapped file, say) for the reader's life.
  public init(unsafeBytes bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    textStart = hasBOM ? 3 : 0
    index = textStart
    tokenStart = textStart
    lastPosition = JSONPosition(line: 1, column: 1, offset: textStart)
  }

  /// Runs `body` with a reader over `bytes`; the reader must not escape it.
  public static func withReader<Result, Failure: Error>(
    over bytes: [UInt8], _ body: (inout JSONReader) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in
      var reader = JSONReader(unsafeBytes: buffer)
      return try body(&reader)
    }
  }

  /// The kinds of JSON value, as `peek()` reports them and error messages name them.
  public enum Kind: Equatable, Hashable, Sendable, CustomStringConvertible {
    case null, bool, number, string, array, object

    public var description: String {
      switch self {
      case .null: "null"
      case .bool: "a boolean"
      case .number: "a number"
      case .string: "a string"
      case .array: "an array"
      case .object: "an object"
      }
    }
  }

  /// Where the current value (or key, inside `readObject` before its value is read)
  /// starts, for errors that callers raise about it.
  public var position: JSONPosition {
    mutating get {
      position(at: tokenStart)
    }
  }

  /// Checks that only whitespace follows the document.
  public mutating func finish() throws(JSONSyntaxError) {
    skipWhitespace()
    guard index < bytes.count else {
      if !hasStarted { throw syntaxError(.emptyDocument, at: index) }
      return
    }
    guard let found = UTF8Validation.scalar(in: bytes, at: index) else {
      throw syntaxError(.invalidUTF8(offset: index), at: index)
    }
    if startsComment(at: index) { throw syntaxError(.comment, at: index) }
    throw syntaxError(.unexpectedAfterDocument(found), at: index)
  }

  // MARK: - Shared machinery

  /// Steps over whitespace. After a whitespace byte the spaces that follow, a line's
  /// indentation in a pretty-printed file, are skipped a word at a time: a `1` bit in
  /// `word ^ spaces` is a byte that is not a space, so its lowest one ends the run.
  @inline(__always)
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09:
        index &+= 1
        if index &+ 8 <= bytes.count, let base = bytes.baseAddress {
          let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
          index &+= (word ^ 0x2020_2020_2020_2020).trailingZeroBitCount &>> 3
        }
      default: return
      }
    }
  }

  mutating func position(at offset: Int) -> JSONPosition {
    if offset < textStart { return JSONPosition(line: 1, column: 1, offset: offset) }
    let start =
      offset >= lastPosition.offset
      ? lastPosition : JSONPosition(line: 1, column: 1, offset: textStart)
    lastPosition = start.advanced(to: offset, in: bytes)
    return lastPosition
  }

  /// The error for `reason` at `offset`, unless the file is in another encoding
  /// altogether: then that is the one thing worth saying.
  mutating func syntaxError(_ reason: JSONSyntaxError.Reason, at offset: Int) -> JSONSyntaxError {
    if let encoding = foreignEncoding() {
      return JSONSyntaxError(
        .unsupportedEncoding(encoding), at: JSONPosition(line: 1, column: 1, offset: 0))
    }
    return JSONSyntaxError(reason, at: position(at: offset))
  }

  /// The error for finding something other than `expected` at `offset`.
  mutating func unexpected(
    _ expected: JSONSyntaxError.Expectation, at offset: Int, inside context: JSONSyntaxError.Context
  ) -> JSONSyntaxError {
    guard offset < bytes.count else {
      return syntaxError(
        context == .document && !hasStarted ? .emptyDocument : .unexpectedEndOfInput(context),
        at: offset)
    }
    guard let found = UTF8Validation.scalar(in: bytes, at: offset) else {
      return syntaxError(.invalidUTF8(offset: offset), at: offset)
    }
    if startsComment(at: offset) { return syntaxError(.comment, at: offset) }
    return syntaxError(.unexpectedCharacter(found, expected: expected), at: offset)
  }

  /// Whether `//` or `/*` starts at `offset`: worth its own message, as people do try.
  private func startsComment(at offset: Int) -> Bool {
    offset + 1 < bytes.count && bytes[offset] == UInt8(ascii: "/")
      && (bytes[offset + 1] == UInt8(ascii: "/") || bytes[offset + 1] == UInt8(ascii: "*"))
  }

  /// The name of the UTF-16 or UTF-32 form the file starts like, if any. Checked only
  /// on the error path; valid UTF-8 JSON never starts with a NUL, 0xFE or 0xFF.
  private func foreignEncoding() -> String? {
    let count = bytes.count
    guard count >= 2, count % 2 == 0 else { return nil }
    let b0 = bytes[0]
    let b1 = bytes[1]
    if count % 4 == 0 {
      let b2 = bytes[2]
      let b3 = bytes[3]
      if b0 == 0xFF, b1 == 0xFE, b2 == 0, b3 == 0 { return "UTF-32LE" }
      if b0 == 0, b1 == 0, b2 == 0xFE, b3 == 0xFF { return "UTF-32BE" }
      if b0 != 0, b1 == 0, b2 == 0, b3 == 0 { return "UTF-32LE" }
      if b0 == 0, b1 == 0, b2 == 0, b3 != 0 { return "UTF-32BE" }
    }
    if b0 == 0xFF, b1 == 0xFE { return "UTF-16LE" }
    if b0 == 0xFE, b1 == 0xFF { return "UTF-16BE" }
    if b0 != 0, b1 == 0 { return "UTF-16LE" }
    if b0 == 0, b1 != 0 { return "UTF-16BE" }
    return nil
  }
}
