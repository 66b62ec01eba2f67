/// An integer field with a range (`priority` is 0–5), held as a `Stored` (a task's
/// priority in one byte, `Int8`), which must hold every value of the range.
struct IntCodec<Stored: FixedWidthInteger & Sendable>: FieldCodec {
  let range: ClosedRange<Int>

  init(range: ClosedRange<Int>) {
    precondition(
      Stored(exactly: range.lowerBound) != nil && Stored(exactly: range.upperBound) != nil,
      "an integer field's range fits what holds it")
    self.range = range
  }

  var type: FieldType { .int(range) }
  var completions: [String] { range.count <= 10 ? range.map(String.init) : [] }

  func parse(_ token: ValueToken) -> Stored? {
    guard case .word(let text) = token else { return nil }
    return checked(text)
  }

  /// A file's integer must be spelled as one: `2.0` or `2e0` is not a priority.
  func decode(_ json: JSONValue) -> Stored? {
    guard case .number(let spelling) = json else { return nil }
    return checked(spelling)
  }

  func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> Stored? {
    guard try reader.peek() == .number, let value = try reader.readIntegerToken(), range.contains(value)
    else { return nil }
    return Stored(truncatingIfNeeded: value)
  }

  private func checked(_ text: String) -> Stored? {
    guard let value = Int(text), range.contains(value) else { return nil }
    return Stored(truncatingIfNeeded: value)
  }

  func encode(_ value: Stored) -> JSONValue { .number(String(value)) }
  func appendForCommand(_ value: Stored, to out: inout [UInt8]) {
    JSONValue.appendDecimal(Int(value), to: &out)
  }
  /// A value's digits, laid out on the stack (a negative one with its sign, as
  /// `appendForCommand` writes it).
  func withStepBytes(of value: Stored, _ body: (_ isText: Bool, _ bytes: UnsafeRawBufferPointer) -> Void) {
    guard value >= 0 else { return withCommandBytes(of: value) { body(false, $0) } }
    JSONValue.withDigits(of: UInt64(value)) { body(false, $0) }
  }
  func write(_ value: Stored, to writer: inout JSONWriter) { writer.integer(Int(value)) }
  func display(_ value: Stored) -> String { String(value) }
  @inline(__always)
  func compare(_ a: Stored, _ b: Stored) -> Int? { a == b ? 0 : (a < b ? -1 : 1) }
}
