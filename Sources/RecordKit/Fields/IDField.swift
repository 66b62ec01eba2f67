/// The read-only `id` field: shown, listed and completed like any field, never edited.
final class IDField<Root: Record>: FieldAccessor {
  private let key = JSONWriter.Key("id")

  var name: String { "id" }
  var type: FieldType { .string }
  var isReadOnly: Bool { true }
  var isCustom: Bool { false }
  var isList: Bool { false }
  var completions: [String] { [] }

  var cellReading: CellReading { .text }

  func json(in record: Root) -> JSONValue? { .string(record.id) }

  func sameValue(in first: Root, and second: Root) -> Bool {
    first.id == second.id
  }
  func display(in record: Root) -> String? { record.id }

  func write(_ record: UnsafePointer<Root>, to writer: inout JSONWriter) {
    writer.key(key)
    writer.string(record.pointee.id)
  }

  func writeValue(_ record: UnsafePointer<Root>, to writer: inout JSONWriter) -> Bool {
    writer.string(record.pointee.id)
    return true
  }

  func parseJSON(_ token: ValueToken) throws(FieldError) -> JSONValue {
    guard let text = StringCodec().parse(token) else {
      throw .invalidValue(field: name, expected: "an id", found: token.description)
    }
    return .string(text)
  }

  func decode(_ json: JSONValue, into record: inout Root, texts: inout TextArena) throws(FieldError) {
    throw .readOnly(name)
  }

  /// An id member whose bytes differ from the record's id (an escape) is not read back:
  /// the patch that asks declines, and the whole-value patch writes the record.
  func holdsValue(readFrom reader: inout JSONReader, in record: UnsafePointer<Root>) -> Bool? { nil }

  /// The id is read before any field, by the table, never through here.
  func read(from reader: inout JSONReader, into record: inout Root, texts: inout TextArena)
    throws(JSONSyntaxError) -> Bool
  {
    false
  }

  func makeSet(_ token: ValueToken, for record: Root, numbered number: RecordNumber) throws(FieldError)
    -> (any FieldEdit<Root>)?
  {
    throw .readOnly(name)
  }

  func applySet(
    _ value: SetValue, in record: UnsafeMutablePointer<Root>, numbered number: RecordNumber
  )
    throws(FieldError)
    -> (any FieldEdit<Root>)?
  {
    throw .readOnly(name)
  }

  func applySet(
    _ value: SetValue, in record: UnsafeMutablePointer<Root>, numbered number: RecordNumber,
    into store: inout StepStore<Root>
  ) throws(FieldError) -> StepRowWrite<Root> {
    throw .readOnly(name)
  }

  func makeUnset(for record: Root, numbered number: RecordNumber) throws(FieldError) -> (
    any FieldEdit<Root>
  )? {
    throw .readOnly(name)
  }

  func makeListEdit(_ token: ValueToken, adding: Bool, for record: Root, numbered number: RecordNumber)
    throws(FieldError)
    -> (any FieldEdit<Root>)?
  {
    throw .readOnly(name)
  }

  func decodeEdit(record: RecordNumber, old: JSONValue?, new: JSONValue?, action: EditAction)
    throws(FieldError) -> any FieldEdit<Root>
  {
    throw .readOnly(name)
  }

  /// The id as a string: every record has one.
  func matcher(_ op: FilterOperator, _ operand: FilterOperand) throws(FieldError) -> RecordMatcher<
    Root
  > {
    guard case .value(let token) = operand else {
      guard op == .equal || op == .exactly || op == .notEqual else {
        throw .invalidValue(
          field: name, expected: "a value (only =, == and != compare with null)", found: "null")
      }
      let wantsNull = op != .notEqual
      return RecordMatcher { _ in !wantsNull }
    }
    guard let text = StringCodec().parse(token) else {
      throw .invalidValue(field: name, expected: "an id", found: token.description)
    }
    if op == .contains {
      let needle = text.lowercased()
      return RecordMatcher { $0.pointee.id.lowercased().contains(needle) }
    }
    return RecordMatcher { op.holds(JSONOrder.compareText($0.pointee.id, text)) }
  }

  var recordOrder: RecordOrder<Root> {
    RecordOrder { JSONOrder.compareText($0.pointee.id, $1.pointee.id) }
  }

  func applyBulk(_ change: BulkChange, at positions: [Int], in document: inout Document<Root>)
    throws(FieldError) -> (any BulkFieldEdit<Root>)?
  {
    throw .readOnly(name)
  }

  func decodeBulk(action: EditAction, records: [RecordNumber], olds: [JSONValue?], news: BulkNewValues)
    throws(FieldError) -> any BulkFieldEdit<Root>
  {
    throw .readOnly(name)
  }
}
