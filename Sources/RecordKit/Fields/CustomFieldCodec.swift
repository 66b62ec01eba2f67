/// A custom field: any JSON value, whose type the file decides.
///
/// Typed input is read the way a user would expect: a quoted token is always a
/// string; a bare `true`, `false`, `null` or number is that JSON value (its
/// spelling kept); any other word is a string; a list is an array.
public struct CustomFieldCodec: FieldCodec {
  public var type: FieldType { .json }

  public func parse(_ token: ValueToken) -> CustomValue? {
    Self.infer(token).map { CustomValue($0) }
  }

  static func infer(_ token: ValueToken) -> JSONValue? {
    switch token {
    case .quoted(let text): .string(text)
    case .word("true"): .bool(true)
    case .word("false"): .bool(false)
    case .word("null"): .null
    case .word(let text): JSONValue.isValidNumberSpelling(text) ? .number(text) : .string(text)
    case .list(let items): .array(items.compactMap(infer))
    }
  }

  public func decode(_ json: JSONValue) -> CustomValue? { CustomValue(json) }
  public func encode(_ value: CustomValue) -> JSONValue { value.json }
  public func write(_ value: CustomValue, to writer: inout JSONWriter) { writer.value(value.json) }

  public func compare(_ a: CustomValue, _ b: CustomValue) -> Int? { JSONOrder.compare(a.json, b.json) }
  public func isNull(_ value: CustomValue) -> Bool { value.json == .null }
  public func containsElement(_ value: CustomValue, _ element: CustomValue) -> Bool? {
    JSONOrder.contains(value.json, element.json)
  }

  public func display(_ value: CustomValue) -> String {
    if case .string(let text) = value.json { text } else { value.json.compactText }
  }

  /// Commands keep the key's place: `{"value": …, "at": 2}`.
  public func encodeForCommand(_ value: CustomValue) -> JSONValue {
    var object = JSONObject(["value": value.json])
    if value.position != .max { object["at"] = .number(String(value.position)) }
    return .object(object)
  }

  /// `encodeForCommand(value)` in compact JSON, written straight out (the journal's path:
  /// twice in every step of a run-time kind).
  public func appendForCommand(_ value: CustomValue, to out: inout [UInt8]) {
    out.append(literal: #"{"value": "#)
    value.json.appendCompact(to: &out)
    if value.position != .max {
      out.append(literal: #", "at": "#)
      JSONValue.appendDecimal(value.position, to: &out)
    }
    out.append(UInt8(ascii: "}"))
  }

  public func decodeFromCommand(_ json: JSONValue) -> CustomValue? {
    guard case .object(let object) = json, let value = object["value"] else { return nil }
    guard let at = object["at"] else { return CustomValue(value) }
    guard case .number(let spelling) = at, let position = Int(spelling), position >= 0 else { return nil }
    return CustomValue(value, position: position)
  }
}
