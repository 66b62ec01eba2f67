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

  public func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> Bool? {
    guard try reader.peek() == .bool else { return nil }
    return try reader.readBoolToken()
  }

  public func encode(_ value: Bool) -> JSONValue { .bool(value) }
  public func write(_ value: Bool, to writer: inout JSONWriter) { writer.bool(value) }
  public func display(_ value: Bool) -> String { value ? "true" : "false" }
  @inline(__always)
  public func compare(_ a: Bool, _ b: Bool) -> Int? { a == b ? 0 : (a ? 1 : -1) }
  /// `false` sorts before `true`, but `done<true` means nothing.
  public var isOrdered: Bool { false }
}
