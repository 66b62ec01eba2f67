/// Whole documents and subtrees as `JSONValue`, built on the same token steps as the
/// pull API. Recursion is bounded by the nesting limit, checked before each descent.
extension JSONReader {
  /// Parses a complete document: one value, then only whitespace.
  static func parseDocument(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    try withReader(over: bytes) { (reader: inout JSONReader) throws(JSONSyntaxError) -> JSONValue in
      let value = try reader.readValue()
      try reader.finish()
      return value
    }
  }

  /// Parses the value at the current byte, which the caller has checked is there.
  mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    switch bytes[index] {
    case UInt8(ascii: "\""):
      return .string(try readStringToken())
    case UInt8(ascii: "["):
      return .array(try parseArray())
    case UInt8(ascii: "{"):
      return .object(try parseObject())
    case UInt8(ascii: "t"):
      try readLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try readLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try readLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try readNumberToken())
    default:
      throw unexpected(.value, at: index, inside: .document)
    }
  }

  private mutating func parseArray() throws(JSONSyntaxError) -> [JSONValue] {
    guard try enterArray() else { return [] }
    let base = valueStack.count
    repeat {
      let element = try parseValue()
      valueStack.append(element)
    } while try advanceInArray()
    return valueStack.moveSuffix(from: base, leaving: .null)
  }

  private mutating func parseObject() throws(JSONSyntaxError) -> JSONObject {
    guard try enterObject() else { return JSONObject() }
    let base = memberStack.count
    var keys = JSONKeySet(base: keyStack.count)
    repeat {
      let key = try readKey(checkingAgainst: &keys)
      let value = try parseValue()
      memberStack.append(JSONObject.Member(key: key, value: value))
    } while try advanceInObject()
    keys.removeAll(from: &keyStack)
    return JSONObject(memberStack.moveSuffix(from: base, leaving: .placeholder))
  }
}

extension JSONValue {
  /// Parses a complete JSON document strictly; see `JSONReader` for what is refused.
  public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    try JSONReader.parseDocument(bytes)
  }
}
