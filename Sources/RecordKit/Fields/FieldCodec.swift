/// How one field type parses, validates, prints and converts its values.
///
/// A field table entry pairs a codec with a typed key path; the codec is the
/// only place that knows what "a priority" or "a date" is, so parsing typed
/// input, decoding the file and printing all agree.
public protocol FieldCodec: Sendable {
  associatedtype Value: Equatable & Sendable

  var type: FieldType { get }
  /// The value a typed token means, or `nil` when it is not a valid value.
  func parse(_ token: ValueToken) -> Value?
  /// `parse(_:)` of the word `bytes` (UTF-8): of `.quoted` of their text when `quoted`,
  /// else of `.word`; the same answer. By default it makes that token; a codec that keeps
  /// its value as bytes (`TextCodec`) makes it from them, with no `String` in between.
  func parse(bytes: UnsafeBufferPointer<UInt8>, quoted: Bool) -> Value?
  /// The value a JSON value from the file means, or `nil` when it does not fit.
  func decode(_ json: JSONValue) -> Value?
  /// `decode(_:)` for a read of many records (a CSV table's cells): a value kept as bytes
  /// puts them in `texts`, as `read(from:texts:)` does. By default, `decode(_:)`.
  func decode(_ json: JSONValue, texts: inout TextArena) -> Value?
  /// The value at the reader, read straight from the file's bytes; `nil` when the value
  /// there does not fit (the reader may then be anywhere inside it). Same answers as
  /// `decode` of the value read whole, which is what the default does. A value kept as
  /// bytes (`TextCodec`'s) puts them in `texts`, which a read of many records shares.
  func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> Value?
  func encode(_ value: Value) -> JSONValue
  /// Asks the processor for the memory the value at `value` keeps outside its record (a
  /// text's bytes), which an edit of the field reads first (`CacheHint`): reads the value
  /// in place, not that memory, and retains nothing (a retain would touch it). By
  /// default nothing: most values are all in the record.
  func warm(_ value: UnsafePointer<Value?>)
  /// Writes the value as `encode` makes it, straight to the writer: saving builds no
  /// `JSONValue` per field.
  func write(_ value: Value, to writer: inout JSONWriter)
  /// The value as `show` and `list` print it.
  func display(_ value: Value) -> String
  /// Values worth offering to tab completion (`true`/`false`).
  var completions: [String] { get }
  /// How a CSV or TSV cell's text becomes a value of this codec (by default, as its
  /// `type` says: `CellReading(type)`).
  var cellReading: CellReading { get }
  /// The value as an encoded command holds it; the file's form unless the
  /// codec needs more (a custom field's place).
  func encodeForCommand(_ value: Value) -> JSONValue
  func decodeFromCommand(_ json: JSONValue) -> Value?
  /// Appends `encodeForCommand(value)` in compact JSON: the journal writes every edit's
  /// values so, and a codec may do it without making a `JSONValue` first.
  func appendForCommand(_ value: Value, to out: inout [UInt8])
  /// Hands `body` the value as the history log's compact step holds it (`EditStep`):
  /// `isText` and the UTF-8 bytes of a string when `encodeForCommand(value)` is that
  /// string, else the bytes `appendForCommand` writes. By default the latter, made in a
  /// scratch array; a codec of strings or numbers hands over bytes it has.
  func withStepBytes(of value: Value, _ body: (_ isText: Bool, _ bytes: UnsafeRawBufferPointer) -> Void)
  /// Why `value`, of the right type, breaks a rule of the field (a run-time kind's
  /// schema); `nil` when it breaks none, which the default always says. Every edit that
  /// writes a value asks.
  func brokenRule(_ value: Value) -> String?
  /// The field's rules in words, for `fields` ("1450–2100, required"); empty when none.
  var rules: String { get }
  /// The field's `description` (or `title`), for `fields`, `help` and completion.
  var about: String? { get }
  /// Whether `set` may change it (false for a `readOnly` field or a run-time key).
  var isReadOnly: Bool { get }
  /// How two values compare, for filters and `sort`: negative, zero or positive as `a` is
  /// below, equal to or above `b`; `nil` when they do not compare (JSON values of two
  /// types, null against a value). The default compares their JSON (`JSONOrder`); the
  /// shipped codecs compare their typed values, with no allocation.
  func compare(_ a: Value, _ b: Value) -> Int?
  /// Whether `<`, `<=`, `>`, `>=` mean something for the field: yes for numbers, strings
  /// and dates (the default), no for a bool or a list.
  var isOrdered: Bool { get }
  /// Whether `value` is JSON null (absence is the enclosing `Optional`); never, by default.
  func isNull(_ value: Value) -> Bool
  /// For a filter's `=`: whether `value` is a list holding `element`; `nil` when it is no
  /// list (the default), and `compare` decides. A JSON field may hold a list.
  func containsElement(_ value: Value, _ element: Value) -> Bool?
  /// The value a filter's token means (`due<2026-12-01`): `parse`'s answer by default; a
  /// codec whose `parse` leaves a check to `brokenRule` (a run-time kind's date) makes it
  /// here, since a filter's value is compared, not stored.
  func parseFilterValue(_ token: ValueToken) -> Value?
}

extension FieldCodec {
  @inline(__always)
  public func warm(_ value: UnsafePointer<Value?>) {}
  public var completions: [String] { [] }
  public var cellReading: CellReading { CellReading(type) }
  @inline(__always)
  public func brokenRule(_ value: Value) -> String? { nil }
  public var rules: String { "" }
  public var about: String? { nil }
  public var isReadOnly: Bool { false }
  func compare(_ a: Value, _ b: Value) -> Int? { JSONOrder.compare(encode(a), encode(b)) }
  public var isOrdered: Bool { true }
  @inline(__always)
  func isNull(_ value: Value) -> Bool { false }
  @inline(__always)
  func containsElement(_ value: Value, _ element: Value) -> Bool? { nil }
  public func parseFilterValue(_ token: ValueToken) -> Value? { parse(token) }
  public func parse(bytes: UnsafeBufferPointer<UInt8>, quoted: Bool) -> Value? {
    parse(ValueToken(word: bytes, quoted: quoted))
  }
  public func decode(_ json: JSONValue, texts: inout TextArena) -> Value? { decode(json) }
  public func read(from reader: inout JSONReader, texts: inout TextArena) throws(JSONSyntaxError) -> Value? {
    decode(try reader.readValue())
  }
  func write(_ value: Value, to writer: inout JSONWriter) {
    writer.value(encode(value))
  }
  func encodeForCommand(_ value: Value) -> JSONValue { encode(value) }
  func decodeFromCommand(_ json: JSONValue) -> Value? { decode(json) }
  func appendForCommand(_ value: Value, to out: inout [UInt8]) {
    encodeForCommand(value).appendCompact(to: &out)
  }
  public func withStepBytes(
    of value: Value, _ body: (_ isText: Bool, _ bytes: UnsafeRawBufferPointer) -> Void
  ) {
    withCommandBytes(of: value) { body(false, $0) }
  }

  /// Hands `body` the bytes `appendForCommand` writes for `value`, made in a scratch array:
  /// `withStepBytes`'s default, and what a codec's own falls back to.
  func withCommandBytes(of value: Value, _ body: (UnsafeRawBufferPointer) -> Void) {
    // Room for most values at once: the array otherwise grew twice for a short one.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64)
    appendForCommand(value, to: &bytes)
    bytes.withUnsafeBytes(body)
  }
}

/// A codec whose values are lists, so one element can be added or removed.
protocol ListFieldCodec: FieldCodec {
  associatedtype Element: Equatable & Sendable
  func parseElement(_ token: ValueToken) -> Element?
  func elements(of value: Value) -> [Element]
  func value(from elements: [Element]) -> Value
  func displayElement(_ element: Element) -> String
  /// What one element must be, for "expected …": "a list element (a string)".
  var elementExpectation: String { get }
  /// Whether two elements are the same for a filter's `=` (by default `==`; strings by
  /// their bytes, as filters compare strings).
  func sameElement(_ a: Element, _ b: Element) -> Bool
  /// Whether `value` holds an element that is the same as `element` (`sameElement`): a
  /// filter's `tags=x`. By default, a walk of `elements(of:)`.
  func contains(_ value: Value, _ element: Element) -> Bool
}

extension ListFieldCodec {
  var elementExpectation: String { "a list element (a string)" }
  func sameElement(_ a: Element, _ b: Element) -> Bool { a == b }
  func contains(_ value: Value, _ element: Element) -> Bool {
    elements(of: value).contains { sameElement($0, element) }
  }
}
