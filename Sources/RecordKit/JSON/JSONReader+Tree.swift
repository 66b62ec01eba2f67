/// Whole documents and subtrees as `JSONValue`, built on the same token steps as the
/// pull API. Recursion is bounded by the nesting limit, checked before each descent.
extension JSONReader {
  /// Parses a complete document: one value, then only whitespace.
  public static func parseDocument(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
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
      var elements: [JSONValue] = []
      guard try enterArray() else { return .array(elements) }
      repeat {
        elements.append(try parseValue())
      } while try advanceInArray()
      return .array(elements)
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

  private mutating func parseObject() throws(JSONSyntaxError) -> JSONObject {
    var members: [JSONObject.Member] = []
    guard try enterObject() else { return JSONObject(members) }
    var keys = JSONKeySet()
    repeat {
      let keyStart = index
      let key = try readKey()
      guard keys.insert(key) else { throw syntaxError(.duplicateKey(key), at: keyStart) }
      members.append(JSONObject.Member(key: key, value: try parseValue()))
    } while try advanceInObject()
    return JSONObject(members)
  }
}

extension JSONValue {
  /// Parses a complete JSON document strictly; see `JSONReader` for what is refused.
  public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    try JSONReader.parseDocument(bytes)
  }
}
