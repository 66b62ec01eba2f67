/// Arrays and objects: the pull API over them, and the token steps it shares with the
/// tree builder (enter, next member, leave), where commas, trailing commas, keys and
/// the nesting limit are checked once for both.
extension JSONReader {
  /// Reads an array, calling `body` once per element with the reader on it.
  ///
  /// `body` reads the element (any `read…` call); an element it leaves unread is
  /// skipped, after being checked like any other.
  mutating func readArray(_ body: (inout JSONReader) throws -> Void) throws {
    try expect(.array)
    guard try enterArray() else { return }
    repeat {
      let start = index
      try body(&self)
      if index == start { try skipValue() }
    } while try advanceInArray()
  }

  /// Reads an object, calling `body` once per member with its key and the reader on
  /// its value; a value `body` leaves unread is skipped. A key that comes twice is an
  /// error at the second one, raised before `body` sees it.
  mutating func readObject(_ body: (inout JSONReader, String) throws -> Void) throws {
    try expect(.object)
    guard try enterObject() else { return }
    var keys = JSONKeySet(base: keyStack.count)
    repeat {
      let key = try readKey(checkingAgainst: &keys)
      let start = index
      try body(&self, key)
      if index == start { try skipValue() }
    } while try advanceInObject()
    keys.removeAll(from: &keyStack)
  }

  /// Consumes the `[` at the current byte; true when an element follows.
  mutating func enterArray() throws(JSONSyntaxError) -> Bool {
    try descend()
    guard try skipToContent(in: .array) != UInt8(ascii: "]") else {
      index += 1
      depth -= 1
      return false
    }
    tokenStart = index
    return true
  }

  /// After an element: consumes `,` (true: another element follows) or `]` (false).
  /// Inlined, the usual steps taken at once (`steppedOverComma(to:)`).
  @inline(__always)
  mutating func advanceInArray() throws(JSONSyntaxError) -> Bool {
    if steppedOverComma(to: { $0 != UInt8(ascii: "]") && !JSONSpan.isWhitespace($0) }) { return true }
    return try advance(closer: UInt8(ascii: "]"), expected: .arrayElementEnd, in: .array)
  }

  /// Consumes the `{` at the current byte; true when a member follows.
  mutating func enterObject() throws(JSONSyntaxError) -> Bool {
    try descend()
    guard try skipToContent(in: .object) != UInt8(ascii: "}") else {
      index += 1
      depth -= 1
      return false
    }
    return true
  }

  /// Reads a member's key and its `:`, leaving the reader on the value and
  /// `tokenStart` on the key; a key already in `keys` is refused at this second one.
  mutating func readKey(checkingAgainst keys: inout JSONKeySet) throws(JSONSyntaxError) -> String {
    guard bytes[index] == UInt8(ascii: "\"") else {
      throw unexpected(.key, at: index, inside: .object)
    }
    let keyStart = index
    let key = try readStringToken()
    guard keys.insert(key, into: &keyStack) else {
      throw syntaxError(.duplicateKey(key), at: keyStart)
    }
    guard try content(in: .object) == UInt8(ascii: ":") else {
      throw unexpected(.colon, at: index, inside: .object)
    }
    _ = try skipToContent(in: .object)
    tokenStart = keyStart
    return key
  }

  /// After a member's value: consumes `,` (true: another member follows) or `}` (false).
  /// Inlined, the usual steps taken at once (`steppedOverComma(to:)`).
  @inline(__always)
  mutating func advanceInObject() throws(JSONSyntaxError) -> Bool {
    if steppedOverComma(to: { $0 == UInt8(ascii: "\"") }) { return true }
    return try advance(closer: UInt8(ascii: "}"), expected: .objectMemberEnd, in: .object)
  }

  /// Steps from a comma at the current byte to what follows it when that is the usual
  /// step: the next byte, or after one space (`, `, as Python writes) or one line break
  /// (as recsh writes records), up to seven spaces more, found with one load of eight
  /// bytes. True when it stepped: what it stepped to is `expected` (a key's quote, an
  /// element's first byte: neither white space nor the closer, where the general step
  /// gives the same answer). False, with the reader not moved, for anything else (white
  /// space before the comma, a carriage return, more spaces, a trailing comma, the end
  /// near), which `advance` steps over or words. The general step cost some 100
  /// instructions a member, called.
  @inline(__always)
  private mutating func steppedOverComma(to expected: (UInt8) -> Bool) -> Bool {
    guard index &+ 10 < bytes.count, bytes[index] == UInt8(ascii: ","), let base = bytes.baseAddress else {
      return false
    }
    var next = index &+ 1
    if bytes[next] == UInt8(ascii: "\n") || bytes[next] == UInt8(ascii: " ") {
      next &+= 1
      let word = UInt64(littleEndian: UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self))
      next &+= (word ^ 0x2020_2020_2020_2020).trailingZeroBitCount &>> 3
    }
    guard expected(bytes[next]) else { return false }
    index = next
    tokenStart = next
    return true
  }

  /// Counts one more level of nesting, refusing it past the limit before any recursion.
  private mutating func descend() throws(JSONSyntaxError) {
    guard depth < Self.maxDepth else {
      throw syntaxError(.tooDeep(limit: Self.maxDepth), at: index)
    }
    depth += 1
  }

  /// Steps over the current byte, then returns the next byte that is not whitespace.
  mutating func skipToContent(in context: JSONSyntaxError.Context) throws(JSONSyntaxError)
    -> UInt8
  {
    index += 1
    return try content(in: context)
  }

  /// Skips whitespace and returns the byte after it; the input must not end in `context`.
  @inline(__always)
  mutating func content(in context: JSONSyntaxError.Context) throws(JSONSyntaxError) -> UInt8 {
    skipWhitespace()
    guard index < bytes.count else { throw syntaxError(.unexpectedEndOfInput(context), at: index) }
    return bytes[index]
  }

  private mutating func advance(
    closer: UInt8, expected: JSONSyntaxError.Expectation, in context: JSONSyntaxError.Context
  ) throws(JSONSyntaxError) -> Bool {
    switch try content(in: context) {
    case UInt8(ascii: ","):
      let comma = index
      if try skipToContent(in: context) == closer {
        throw syntaxError(.trailingComma(before: Unicode.Scalar(closer)), at: comma)
      }
      tokenStart = index
      return true
    case closer:
      index += 1
      depth -= 1
      return false
    default:
      throw unexpected(expected, at: index, inside: context)
    }
  }
}

/// JSON Lines: one value per line.
extension JSONReader {
  /// Reads the document as JSON Lines, calling `body` once per value with the reader on
  /// it; a value `body` leaves unread is skipped, after being checked.
  ///
  /// Lines that hold only whitespace are skipped; the last line may lack its line break.
  /// A value must start and end on one line, with only spaces, tabs and a carriage return
  /// after it: a pretty-printed value across lines is refused at its first line, and a
  /// last line cut off in the middle of its value is refused as such (not as an
  /// "unexpected end of input", which would not say which line was lost). Values are read
  /// at nesting depth 0, one level less than an array's elements.
  ///
  /// The bytes are read front to back only: each line's end is found before its value is
  /// read, not looked for in the value's bytes after `body`, which may have let the pages
  /// it passed go (`FileReader.scanFile`); a look back would map them in again.
  public mutating func readLines(_ body: (inout JSONReader) throws -> Void) throws {
    hasStarted = true
    while true {
      skipWhitespace()
      guard index < bytes.count else { return }
      let start = index
      let lineEnd = firstLineBreak(from: start, to: bytes.count) ?? bytes.count
      tokenStart = start
      do {
        try body(&self)
        if index == start { try skipValue() }
      } catch let error as JSONSyntaxError {
        throw lineError(error, valueStart: start, lineEnd: lineEnd)
      }
      if index > lineEnd {
        throw syntaxError(.valueSpansLines(endLine: position(at: index).line), at: start)
      }
      while index < bytes.count,
        bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D
      {
        index += 1
      }
      guard index == bytes.count || bytes[index] == 0x0A else {
        guard let found = UTF8Validation.scalar(in: bytes, at: index) else {
          throw syntaxError(.invalidUTF8(offset: index), at: index)
        }
        throw syntaxError(.expectedLineBreak(found), at: index)
      }
    }
  }

  /// The offset of the first line feed in `start..<end`, if any. Eight bytes at a time:
  /// in `x = word ^ 0x0A…0A` a line feed is a zero byte, and `(x - 0x01…01) & ~x & 0x80…80`
  /// sets the high bit of the lowest zero byte (a byte above it may be marked falsely,
  /// never one below), so its trailing zero count finds it.
  private func firstLineBreak(from start: Int, to end: Int) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = start
    while offset &+ 8 <= end {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
      let x = word ^ 0x0A0A_0A0A_0A0A_0A0A
      let found = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
      if found != 0 { return offset &+ found.trailingZeroBitCount &>> 3 }
      offset &+= 8
    }
    while offset < end {
      if base[offset] == 0x0A { return offset }
      offset &+= 1
    }
    return nil
  }

  /// `error`, raised while reading the value that starts at `valueStart` on the line that
  /// ends at `lineEnd` (its line feed, or the end of the input), said in terms of lines
  /// where it lies past that line: the value did not end on its line.
  private mutating func lineError(_ error: JSONSyntaxError, valueStart: Int, lineEnd: Int) -> JSONSyntaxError
  {
    let offset = error.position.offset
    if offset == bytes.count, lineEnd == bytes.count, case .unexpectedEndOfInput = error.reason {
      return syntaxError(.unfinishedLastLine, at: valueStart)
    }
    guard offset > lineEnd else { return error }
    return syntaxError(.valueSpansLines(endLine: error.position.line), at: valueStart)
  }
}
