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

  public func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> String? {
    guard try reader.peek() == .string else { return nil }
    return try reader.readStringToken()
  }

  public func encode(_ value: String) -> JSONValue { .string(value) }
  public func appendForCommand(_ value: String, to out: inout [UInt8]) {
    JSONValue.appendQuoted(value, to: &out)
  }
  public func write(_ value: String, to writer: inout JSONWriter) { writer.string(value) }
  public func display(_ value: String) -> String { value }
  @inline(__always)
  public func compare(_ a: String, _ b: String) -> Int? { JSONOrder.compareText(a, b) }
}
