/// A string value as a `String`. A bare `null` is refused (quote it to mean the word), so
/// that `set title null` is never silently the text "null". The shipped kinds' string
/// fields keep their bytes instead (`TextCodec`, which parses and prints through this);
/// an id is parsed with it.
struct StringCodec: FieldCodec {
  var type: FieldType { .string }

  func parse(_ token: ValueToken) -> String? {
    switch token {
    case .word("null"), .list: nil
    case .word(let text), .quoted(let text): text
    }
  }

  func decode(_ json: JSONValue) -> String? {
    if case .string(let text) = json { text } else { nil }
  }

  func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> String? {
    guard try reader.peek() == .string else { return nil }
    return try reader.readStringToken()
  }

  func encode(_ value: String) -> JSONValue { .string(value) }
  func appendForCommand(_ value: String, to out: inout [UInt8]) {
    JSONValue.appendQuoted(value, to: &out)
  }
  func withStepBytes(of value: String, _ body: (_ isText: Bool, _ bytes: UnsafeRawBufferPointer) -> Void) {
    var text = value
    text.withUTF8 { body(true, UnsafeRawBufferPointer($0)) }
  }
  func write(_ value: String, to writer: inout JSONWriter) { writer.string(value) }
  func display(_ value: String) -> String { value }
  @inline(__always)
  func compare(_ a: String, _ b: String) -> Int? { JSONOrder.compareText(a, b) }
}
