/// An integer field with a range (`priority` is 0–5).
struct IntCodec: FieldCodec {
  let range: ClosedRange<Int>

  var type: FieldType { .int(range) }
  var completions: [String] { range.count <= 10 ? range.map(String.init) : [] }

  func parse(_ token: ValueToken) -> Int? {
    guard case .word(let text) = token else { return nil }
    return checked(text)
  }

  /// A file's integer must be spelled as one: `2.0` or `2e0` is not a priority.
  func decode(_ json: JSONValue) -> Int? {
    guard case .number(let spelling) = json else { return nil }
    return checked(spelling)
  }

  func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> Int? {
    guard try reader.peek() == .number, let value = try reader.readIntegerToken(), range.contains(value)
    else { return nil }
    return value
  }

  private func checked(_ text: String) -> Int? {
    guard let value = Int(text), range.contains(value) else { return nil }
    return value
  }

  func encode(_ value: Int) -> JSONValue { .number(String(value)) }
  func appendForCommand(_ value: Int, to out: inout [UInt8]) {
    JSONValue.appendDecimal(value, to: &out)
  }
  /// A value's digits, laid out on the stack (a negative one with its sign, as
  /// `appendForCommand` writes it).
  func withStepBytes(of value: Int, _ body: (_ isText: Bool, _ bytes: UnsafeRawBufferPointer) -> Void) {
    guard value >= 0 else { return withCommandBytes(of: value) { body(false, $0) } }
    JSONValue.withDigits(of: UInt64(value)) { body(false, $0) }
  }
  func write(_ value: Int, to writer: inout JSONWriter) { writer.integer(value) }
  func display(_ value: Int) -> String { String(value) }
  @inline(__always)
  func compare(_ a: Int, _ b: Int) -> Int? { a == b ? 0 : (a < b ? -1 : 1) }
}
