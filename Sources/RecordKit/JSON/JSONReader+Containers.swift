/// Arrays and objects: the pull API over them, and the token steps it shares with the
/// tree builder (enter, next member, leave), where commas, trailing commas, keys and
/// the nesting limit are checked once for both.
extension JSONReader {
  /// Reads an array, calling `body` once per element with the reader on it.
  ///
  /// `body` reads the element (any `read…` call); an element it leaves unread is
  /// skipped, after being checked like any other.
  public mutating func readArray(_ body: (inout JSONReader) throws -> Void) throws {
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
  public mutating func readObject(_ body: (inout JSONReader, String) throws -> Void) throws {
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
  mutating func advanceInArray() throws(JSONSyntaxError) -> Bool {
    try advance(closer: UInt8(ascii: "]"), expected: .arrayElementEnd, in: .array)
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
  mutating func advanceInObject() throws(JSONSyntaxError) -> Bool {
    try advance(closer: UInt8(ascii: "}"), expected: .objectMemberEnd, in: .object)
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
