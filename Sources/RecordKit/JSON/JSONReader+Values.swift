/// The pull API for single values: look at what comes next, then read it as that kind.
extension JSONReader {
  /// The kind of the next value, without reading it.
  public mutating func peek() throws(JSONSyntaxError) -> Kind {
    skipWhitespace()
    tokenStart = index
    guard index < bytes.count else { throw unexpected(.value, at: index, inside: .document) }
    hasStarted = true
    switch bytes[index] {
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    default: throw unexpected(.value, at: index, inside: .document)
    }
  }

  public mutating func readString() throws(JSONSyntaxError) -> String {
    try expect(.string)
    return try readStringToken()
  }

  /// The number exactly as spelled (`1.50`, `1e3`, `-0`), checked against the grammar.
  public mutating func readNumberSpelling() throws(JSONSyntaxError) -> String {
    try expect(.number)
    return try readNumberToken()
  }

  public mutating func readBool() throws(JSONSyntaxError) -> Bool {
    try expect(.bool)
    return try readBoolToken()
  }

  /// Reads `true` or `false` at the current byte, which `peek()` found starts one.
  mutating func readBoolToken() throws(JSONSyntaxError) -> Bool {
    if bytes[index] == UInt8(ascii: "t") {
      try readLiteral("true")
      return true
    }
    try readLiteral("false")
    return false
  }

  public mutating func readNull() throws(JSONSyntaxError) {
    try expect(.null)
    try readLiteral("null")
  }

  /// Reads `null` if it comes next and says whether it did, for optional fields.
  mutating func readNullIfPresent() throws(JSONSyntaxError) -> Bool {
    guard try peek() == .null else { return false }
    try readLiteral("null")
    return true
  }

  /// Reads the next value whole, as a tree (custom fields, nested values).
  public mutating func readValue() throws(JSONSyntaxError) -> JSONValue {
    _ = try peek()
    return try parseValue()
  }

  /// Reads past the next value, checking it as strictly as any other.
  mutating func skipValue() throws(JSONSyntaxError) {
    _ = try readValue()
  }

  mutating func expect(_ kind: Kind) throws(JSONSyntaxError) {
    let found = try peek()
    guard found == kind else {
      throw syntaxError(.typeMismatch(expected: kind, found: found), at: tokenStart)
    }
  }

  /// Reads `literal` (`true`, `false` or `null`) at the current byte, which starts it.
  @inline(__always)
  mutating func readLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
    let count = literal.utf8CodeUnitCount
    let start = literal.utf8Start
    guard index + count <= bytes.count else { throw badLiteral(literal) }
    for offset in 1..<count where bytes[index + offset] != start[offset] {
      throw badLiteral(literal)
    }
    index += count
  }

  private mutating func badLiteral(_ literal: StaticString) -> JSONSyntaxError {
    syntaxError(.invalidLiteral(expected: literal.description), at: index)
  }

  /// Reads a number token at the current byte (a `-` or a digit) and returns its spelling.
  mutating func readNumberToken() throws(JSONSyntaxError) -> String {
    let start = index
    _ = try scanNumberToken()
    return UTF8Validation.asciiString(UnsafeBufferPointer(rebasing: bytes[start..<index]))
  }

  /// Reads a number token at the current byte and returns it as an `Int` when it is
  /// spelled as one that fits (what `Int(spelling)` accepts), `nil` otherwise (`2.0`,
  /// `1e3`, too big). Loading an integer field this way makes no `String` per value.
  mutating func readIntegerToken() throws(JSONSyntaxError) -> Int? {
    let start = index
    guard try scanNumberToken() else { return nil }
    let negative = bytes[start] == UInt8(ascii: "-")
    let digits = (negative ? start + 1 : start)..<index
    // 18 digits always fit; longer ones go through the standard library's overflow checks.
    guard digits.count <= 18 else {
      return Int(UTF8Validation.asciiString(UnsafeBufferPointer(rebasing: bytes[start..<index])))
    }
    var value = 0
    for offset in digits { value = value &* 10 &+ Int(bytes[offset] &- UInt8(ascii: "0")) }
    return negative ? -value : value
  }

  /// Steps over a number token at the current byte, checking it against the grammar;
  /// true when it has neither a fraction nor an exponent.
  mutating func scanNumberToken() throws(JSONSyntaxError) -> Bool {
    var isInteger = true
    if bytes[index] == UInt8(ascii: "-") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw syntaxError(.missingDigit(.minusSign), at: index)
      }
    }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) {
        throw syntaxError(.leadingZero, at: index - 1)
      }
    } else {
      skipDigits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw syntaxError(.missingDigit(.decimalPoint), at: index)
      }
      skipDigits()
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw syntaxError(.missingDigit(.exponent), at: index)
      }
      skipDigits()
    }
    return isInteger
  }

  @inline(__always)
  private func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  @inline(__always)
  private mutating func skipDigits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }
}
