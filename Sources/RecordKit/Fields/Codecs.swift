/// A string field. A bare `null` is refused (quote it to mean the word), so
/// that `set title null` is never silently the text "null".
public struct StringCodec: FieldCodec {
  public init() {}
  public var type: FieldType { .string }

  public func parse(_ token: ValueToken) -> String? {
    switch token {
    case .word("null"), .list: nil
    case .word(let text), .quoted(let text): text
    }
  }

  public func decode(_ json: JSONValue) -> String? {
    if case .string(let text) = json { text } else { nil }
  }

  public func encode(_ value: String) -> JSONValue { .string(value) }
  public func display(_ value: String) -> String { value }
}

/// A bool field: `true` or `false`.
public struct BoolCodec: FieldCodec {
  public init() {}
  public var type: FieldType { .bool }
  public var completions: [String] { ["true", "false"] }

  public func parse(_ token: ValueToken) -> Bool? {
    switch token.text {
    case "true": true
    case "false": false
    default: nil
    }
  }

  public func decode(_ json: JSONValue) -> Bool? {
    if case .bool(let value) = json { value } else { nil }
  }

  public func encode(_ value: Bool) -> JSONValue { .bool(value) }
  public func display(_ value: Bool) -> String { value ? "true" : "false" }
}

/// An integer field with a range (`priority` is 0–5).
public struct IntCodec: FieldCodec {
  public let range: ClosedRange<Int>

  public init(range: ClosedRange<Int>) {
    self.range = range
  }

  public var type: FieldType { .int(range) }
  public var completions: [String] { range.count <= 10 ? range.map(String.init) : [] }

  public func parse(_ token: ValueToken) -> Int? {
    guard case .word(let text) = token else { return nil }
    return checked(text)
  }

  /// A file's integer must be spelled as one: `2.0` or `2e0` is not a priority.
  public func decode(_ json: JSONValue) -> Int? {
    guard case .number(let spelling) = json else { return nil }
    return checked(spelling)
  }

  private func checked(_ text: String) -> Int? {
    guard let value = Int(text), range.contains(value) else { return nil }
    return value
  }

  public func encode(_ value: Int) -> JSONValue { .number(String(value)) }
  public func display(_ value: Int) -> String { String(value) }
}

/// A list of strings, like `tags`.
public struct StringListCodec: ListFieldCodec {
  public init() {}
  public var type: FieldType { .stringList }

  public func parse(_ token: ValueToken) -> [String]? {
    guard case .list(let items) = token else { return nil }
    var result: [String] = []
    result.reserveCapacity(items.count)
    for item in items {
      guard let element = parseElement(item) else { return nil }
      result.append(element)
    }
    return result
  }

  public func parseElement(_ token: ValueToken) -> String? {
    StringCodec().parse(token)
  }

  public func decode(_ json: JSONValue) -> [String]? {
    guard case .array(let items) = json else { return nil }
    var result: [String] = []
    result.reserveCapacity(items.count)
    for item in items {
      guard case .string(let text) = item else { return nil }
      result.append(text)
    }
    return result
  }

  public func encode(_ value: [String]) -> JSONValue { .array(value.map(JSONValue.string)) }

  public func display(_ value: [String]) -> String {
    "[" + value.map(ValueToken.displayElement).joined(separator: ", ") + "]"
  }

  public func elements(of value: [String]) -> [String] { value }
  public func value(from elements: [String]) -> [String] { elements }
  public func displayElement(_ element: String) -> String { ValueToken.displayElement(element) }
}

extension ValueToken {
  /// A list element as the user would type it: bare when it is a plain word.
  static func displayElement(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.utf8.allSatisfy { byte in
        byte > 0x20 && byte != UInt8(ascii: ",") && byte != UInt8(ascii: "[")
          && byte != UInt8(ascii: "]") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
          && byte != UInt8(ascii: ";") && byte != UInt8(ascii: "#")
      }
    return plain ? text : JSONValue.string(text).compactText
  }
}

/// A date field: ISO 8601 dates and date-times, spelled as the user or the file spelled them.
public struct DateCodec: FieldCodec {
  public init() {}
  public var type: FieldType { .date }

  public func parse(_ token: ValueToken) -> ISODate? {
    token.text.flatMap(ISODate.init)
  }

  public func decode(_ json: JSONValue) -> ISODate? {
    if case .string(let text) = json { ISODate(text) } else { nil }
  }

  public func encode(_ value: ISODate) -> JSONValue { .string(value.spelling) }
  public func display(_ value: ISODate) -> String { value.spelling }
}

/// A field of a base type that may also hold JSON `null` (`due`, `birthday`).
public struct NullableCodec<Base: FieldCodec>: FieldCodec {
  public let base: Base

  public init(_ base: Base) {
    self.base = base
  }

  public var type: FieldType { .nullable(base.type) }
  public var completions: [String] { base.completions + ["null"] }

  public func parse(_ token: ValueToken) -> Nullable<Base.Value>? {
    if token == .word("null") { return .null }
    return base.parse(token).map(Nullable.value)
  }

  public func decode(_ json: JSONValue) -> Nullable<Base.Value>? {
    if json == .null { return .null }
    return base.decode(json).map(Nullable.value)
  }

  public func encode(_ value: Nullable<Base.Value>) -> JSONValue {
    switch value {
    case .null: .null
    case .value(let inner): base.encode(inner)
    }
  }

  public func display(_ value: Nullable<Base.Value>) -> String {
    switch value {
    case .null: "null"
    case .value(let inner): base.display(inner)
    }
  }
}

/// A value that may be JSON `null`. Absence is the enclosing `Optional`.
public enum Nullable<Wrapped: Equatable & Sendable>: Equatable, Sendable {
  case null
  case value(Wrapped)
}

/// A custom field: any JSON value, whose type the file decides.
///
/// Typed input is read the way a user would expect: a quoted token is always a
/// string; a bare `true`, `false`, `null` or number is that JSON value (its
/// spelling kept); any other word is a string; a list is an array.
public struct CustomFieldCodec: FieldCodec {
  public init() {}
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

  public func display(_ value: CustomValue) -> String {
    if case .string(let text) = value.json { text } else { value.json.compactText }
  }

  /// Commands keep the key's place: `{"value": …, "at": 2}`.
  public func encodeForCommand(_ value: CustomValue) -> JSONValue {
    var object = JSONObject(["value": value.json])
    if value.position != .max { object["at"] = .number(String(value.position)) }
    return .object(object)
  }

  public func decodeFromCommand(_ json: JSONValue) -> CustomValue? {
    guard case .object(let object) = json, let value = object["value"] else { return nil }
    guard let at = object["at"] else { return CustomValue(value) }
    guard case .number(let spelling) = at, let position = Int(spelling), position >= 0 else { return nil }
    return CustomValue(value, position: position)
  }
}
