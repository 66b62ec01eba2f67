/// One field of a record kind, with its type erased so a table can list them.
///
/// Every edit a field makes is a `PropertyUpdate` over the field's typed key
/// path: the accessor only turns input (a token, a JSON value from the file or
/// the journal) into such an update, after validating it, and the returned edit changes
/// the record when the history applies it. Two forms write as they make: `applySet`,
/// whose update is already applied, and `applySet(_:in:numbered:into:)`, whose update is
/// kept as a row of the history's store from the start, the same old and new values
/// with no object (the one-field `set` of the edit path).
///
/// Public, although only recsh's own modules use it, and although its in-place methods
/// take record pointers: the shell's calls into the editor must stay specializable
/// across modules, which `-cross-module-optimization` does for public code only (the
/// package form of it needs library evolution). Made `package`, edits ran at two thirds
/// of the speed. The pointers are read only through `FieldSlot`.
public protocol FieldAccessor<Root>: AnyObject, Sendable {
  associatedtype Root: Record

  /// The user-visible name: `title`, `address.city`, or a custom key.
  var name: String { get }
  var type: FieldType { get }
  var isReadOnly: Bool { get }
  /// Whether this is a key the kind does not declare.
  var isCustom: Bool { get }
  /// Whether `add`/`remove` take one element of it: known from the field's codec (a
  /// `ListFieldCodec`), never from comparing its type.
  var isList: Bool { get }
  /// Values worth offering to tab completion for this field.
  var completions: [String] { get }
  /// How a CSV or TSV cell's text becomes the field's value: its codec's fact.
  var cellReading: CellReading { get }
  /// The field's rules in words, for `fields`; empty when it has none.
  var rules: String { get }
  /// What the field is for (a schema's `description` or `title`), for `fields`, `help`
  /// and completion.
  var about: String? { get }

  /// The field's value in `record` as JSON; `nil` when absent.
  func json(in record: Root) -> JSONValue?
  /// Whether the field holds the same value in both records (both absent counts), by the
  /// comparison that makes two records equal (the field's own values: strings by their
  /// bytes), without encoding either. A save asks it of every declared
  /// field of a changed record and encodes only those that differ, so a value equal to
  /// the file's keeps its bytes, as a whole record equal to the file's does.
  func sameValue(in first: Root, and second: Root) -> Bool
  /// Writes the field as a member, key and value, when the record has it (saving). The
  /// record is passed by address: passing it by value to a field reached through
  /// `any FieldAccessor` copied it, a retain and release per field of it.
  func write(_ record: UnsafePointer<Root>, to writer: inout JSONWriter)
  /// Asks the processor for the memory the field's value in the record at `record` keeps
  /// outside the record (a text's bytes, a run-time record's members), which a `set` of
  /// the field reads first to compare and keep the old value (`FieldSlot.warmValue`,
  /// `FieldCodec.warm`): reads the record, not that memory. By default nothing.
  func warmValue(at record: UnsafePointer<Root>)
  /// Writes the field's value alone, as `write(_:to:)` writes it after the key; false,
  /// writing nothing, when the record does not have it. What a save compares with the
  /// value a file holds (`MemberPatch`).
  func writeValue(_ record: UnsafePointer<Root>, to writer: inout JSONWriter) -> Bool
  /// The field's value as `show` prints it; `nil` when absent.
  func display(in record: Root) -> String?
  /// The JSON value `token` means for this field (for filters), without editing anything.
  func parseJSON(_ token: ValueToken) throws(FieldError) -> JSONValue
  /// The same value, also checked by the field's rules (a schema's), whether or not the
  /// field may be set: what `new` takes for a run-time kind's key.
  func parseCheckedJSON(_ token: ValueToken) throws(FieldError) -> JSONValue
  /// Sets the field from a file's value (loading, not an edit); a value kept as bytes puts
  /// them in `texts`, which a read of many records shares (`decode(_:into:)` gives each
  /// its own block).
  func decode(_ json: JSONValue, into record: inout Root, texts: inout TextArena) throws(FieldError)
  /// Whether the value at the reader, read as `read(from:into:texts:)` reads it, is the
  /// field's value in the record at `record` (compared as `sameValue` compares); `nil`
  /// when the value there does not fit the field. Nothing is copied: what a save's patch
  /// asks of a changed record's member whose bytes differ from the record's value
  /// (`MemberPatch`), once per such member.
  func holdsValue(readFrom reader: inout JSONReader, in record: UnsafePointer<Root>) -> Bool?
  /// Sets the field from the value at the reader, read straight from the file's bytes
  /// (loading, not an edit); false when the value does not fit, and `decode` of the
  /// value read whole then says why.
  func read(from reader: inout JSONReader, into record: inout Root, texts: inout TextArena)
    throws(JSONSyntaxError) -> Bool

  /// The edit that sets the field to what `token` means; `nil` if it already has that value.
  /// Edits name their record by `number`, its number in the document.
  func makeSet(_ token: ValueToken, for record: Root, numbered number: RecordNumber) throws(FieldError)
    -> (any FieldEdit<Root>)?
  /// The same for a record read in place (the edit path: no copy of the record).
  func makeSet(_ token: ValueToken, in record: UnsafePointer<Root>, numbered number: RecordNumber)
    throws(FieldError)
    -> (any FieldEdit<Root>)?
  /// `makeSet` and its write together, on a record in place: the returned edit is
  /// already applied. The old value moves from the record into the edit instead of
  /// being copied, and a copy of a string retains it, which touches its memory: with a
  /// million records that is a cache miss per edit. Nothing is written when it throws.
  func applySet(_ value: SetValue, in record: UnsafeMutablePointer<Root>, numbered number: RecordNumber)
    throws(FieldError)
    -> (any FieldEdit<Root>)?
  /// `applySet` whose edit is kept as a row of the field's column in `store` (a history's
  /// steps or a large group's commands) from the start: no edit object is made, which
  /// was most of a one-field edit's cost. `.unchanged` when the field already has the
  /// value (nothing written); `.notRows`, having changed nothing, when the field does not
  /// keep rows or the store has no column left — then `applySet` makes the edit. Throws
  /// as `applySet` does, having changed nothing.
  func applySet(
    _ value: SetValue, in record: UnsafeMutablePointer<Root>, numbered number: RecordNumber,
    into store: inout StepStore<Root>
  ) throws(FieldError) -> StepRowWrite<Root>
  /// The edit that removes the field; `nil` if it is already absent.
  func makeUnset(for record: Root, numbered number: RecordNumber) throws(FieldError) -> (any FieldEdit<Root>)?
  /// The edit that adds (or removes) one list element; `nil` when adding one already there.
  func makeListEdit(_ token: ValueToken, adding: Bool, for record: Root, numbered number: RecordNumber)
    throws(FieldError)
    -> (any FieldEdit<Root>)?
  /// An edit read back from its plain-data encoding.
  func decodeEdit(record: RecordNumber, old: JSONValue?, new: JSONValue?, action: EditAction)
    throws(FieldError) -> any FieldEdit<Root>

  /// The test the filter `FIELD op OPERAND` becomes (`FilterOperator` says what each
  /// means); the operand is read by the field's codec, so one that does not fit is an
  /// error (`invalidValue`, `notOrdered`), never a filter that matches nothing.
  func matcher(_ op: FilterOperator, _ operand: FilterOperand) throws(FieldError) -> RecordMatcher<Root>
  /// How `sort FIELD` orders records: by value, null and absent last.
  var recordOrder: RecordOrder<Root> { get }
  /// The bulk edit `change` makes of the records at `positions` (ascending), already
  /// applied; `nil` when it changes none. Nothing is written when it throws.
  func applyBulk(_ change: BulkChange, at positions: [Int], in document: inout Document<Root>)
    throws(FieldError) -> (any BulkFieldEdit<Root>)?
  /// A bulk edit read back from its encoding (`FieldQueries.makeBulkEncoder`): for each
  /// record, its old value (`nil`: absent) and new value.
  func decodeBulk(action: EditAction, records: [RecordNumber], olds: [JSONValue?], news: BulkNewValues)
    throws(FieldError) -> any BulkFieldEdit<Root>
}

/// The new values of a bulk edit as its encoding holds them.
public enum BulkNewValues: Sendable {
  /// One value for every record; `nil`: the field becomes absent.
  case same(JSONValue?)
  case each([JSONValue?])
}

extension FieldAccessor {
  func warmValue(at record: UnsafePointer<Root>) {}
  func parseCheckedJSON(_ token: ValueToken) throws(FieldError) -> JSONValue { try parseJSON(token) }
  var rules: String { "" }
  var about: String? { nil }

  func makeSet(_ token: ValueToken, in record: UnsafePointer<Root>, numbered number: RecordNumber)
    throws(FieldError) -> (any FieldEdit<Root>)?
  {
    try makeSet(token, for: record.pointee, numbered: number)
  }
}

/// What an edit did to its field; names the undo step ("Set title", "Add to tags").
public enum EditAction: String, Sendable, CaseIterable {
  case set, unset, add, remove

  /// The position in `allCases`.
  var index: Int {
    switch self {
    case .set: 0
    case .unset: 1
    case .add: 2
    case .remove: 3
    }
  }

  var verb: String {
    switch self {
    case .set: "Set"
    case .unset: "Unset"
    case .add: "Add to"
    case .remove: "Remove from"
    }
  }
}

extension FieldError {
  /// A JSON value as "found …" names it: the value itself when short, else its kind.
  static func found(_ json: JSONValue) -> String {
    let text = json.compactText
    return text.count <= 40 ? text : json.kindDescription
  }
}

/// What `FieldAccessor.applySet(_:in:numbered:into:)` did with a `set`.
public enum StepRowWrite<Root: Record>: Sendable {
  /// The field kept no row (it keeps none, or the store had no column left): nothing changed.
  case notRows
  /// The field already held the value: nothing changed.
  case unchanged
  /// The value was written and its row and slot appended to the store: the row, as the
  /// change the edit made.
  case appended(EditChange<Root>)
}

extension FieldAccessor {
  /// Sets the field from a file's value, one value alone (see `decode(_:into:texts:)`).
  func decode(_ json: JSONValue, into record: inout Root) throws(FieldError) {
    var texts = TextArena.single
    try decode(json, into: &record, texts: &texts)
  }
}
