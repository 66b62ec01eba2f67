/// A bool field: `true` or `false`.
struct BoolCodec: FieldCodec {
  var type: FieldType { .bool }
  var completions: [String] { ["true", "false"] }

  func parse(_ token: ValueToken) -> Bool? {
    switch token.text {
    case "true": true
    case "false": false
    default: nil
    }
  }

  func decode(_ json: JSONValue) -> Bool? {
    if case .bool(let value) = json { value } else { nil }
  }

  func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> Bool? {
    guard try reader.peek() == .bool else { return nil }
    return try reader.readBoolToken()
  }

  func encode(_ value: Bool) -> JSONValue { .bool(value) }
  func write(_ value: Bool, to writer: inout JSONWriter) { writer.bool(value) }
  func display(_ value: Bool) -> String { value ? "true" : "false" }
  @inline(__always)
  func compare(_ a: Bool, _ b: Bool) -> Int? { a == b ? 0 : (a ? 1 : -1) }
  /// `false` sorts before `true`, but `done<true` means nothing.
  var isOrdered: Bool { false }
}
