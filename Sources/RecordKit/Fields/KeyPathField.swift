/// A field reached through a typed `WritableKeyPath`: every declared field, a
/// nested one through a composed key path (`\Contact.address` appending
/// `\Address.city`), and a custom one through the subscript key path
/// `\R.custom[name]`.
///
/// A final class so that an edit refers to its field with one word: a history
/// of a million steps should not carry a million copies of names and codecs.
/// `@unchecked Sendable` because every property is an immutable `let`; key
/// paths are immutable objects that the standard library does not mark Sendable.
public final class KeyPathField<Root: Record, Codec: FieldCodec>: FieldAccessor, @unchecked Sendable {
  typealias Value = Codec.Value

  public let name: String
  var keyPath: WritableKeyPath<Root, Value?> { slot.keyPath }
  /// Where the value lives in a record: every read and write of it goes through here.
  let slot: FieldSlot<Root, Value>
  let codec: Codec
  public let isCustom: Bool
  private let listEdit: (@Sendable (Value?, ValueToken, Bool) throws(FieldError) -> Value?)?
  /// `json(in:)` and `decode(_:into:)`, which loading and saving call for every field of
  /// every record, as closures made in `init`: where a kind declares its fields the types
  /// are known, so these run specialized code; the class's own methods are generic code
  /// that looks up `Optional<Value>`'s metadata at run time on each call (its cost:
  /// docs/PERFORMANCE.md).
  private let encodeValue: (Root) -> JSONValue?
  /// Sets the field from a file's value; false when the value does not fit the codec.
  private let storeDecoded: (JSONValue, inout Root, inout TextArena) -> Bool
  /// The field's value in a record, made in `init` like the two above: `unset` and the
  /// list edits read the old value through it (`slot`).
  private let readValue: (Root) -> Value?
  /// `sameValue(in:and:)`, made in `init` like `readValue`: the two values read
  /// and compared as the codec's values.
  private let compareValues: (Root, Root) -> Bool
  /// `holdsValue(readFrom:in:)`, made in `init` like `compareValues`.
  private let compareRead: (inout JSONReader, UnsafePointer<Root>) -> Bool?
  /// `makeSet` and `applySet`, made in `init` like the closures above, so that they run
  /// specialized: the methods are reached through the `FieldAccessor` existential and
  /// run as unspecialized generic code. Writes the new value only when the flag is true.
  private let setter:
    (KeyPathField<Root, Codec>, SetValue, UnsafeMutablePointer<Root>, RecordNumber, Bool) throws(FieldError)
      ->
      PropertyUpdate<Root, Codec>?
  /// `PropertyUpdate`'s `apply`/`revert` (the new value when the flag is true, else the
  /// old one) and its journal encoding, made here like `setter`. The update's methods
  /// are reached through the `FieldEdit` existential and run as unspecialized generic
  /// code; they only hand themselves to these, so no generic code touches the values.
  let writeUpdate: (PropertyUpdate<Root, Codec>, inout Document<Root>, Bool) -> Void
  let encodeUpdate: (PropertyUpdate<Root, Codec>, inout [UInt8]) -> Void
  /// The update as the history log keeps a step (`EditStep`), made here like `writeUpdate`.
  let logUpdate: (PropertyUpdate<Root, Codec>, inout [UInt8]) -> Void
  /// `applySet(_:in:numbered:into:)`, made here like `setter`: the `set` written straight
  /// into a row of the store's column for this field.
  private let rowSetter:
    (KeyPathField<Root, Codec>, SetValue, UnsafeMutablePointer<Root>, RecordNumber, inout StepStore<Root>)
      throws(FieldError) -> StepRowWrite<Root>
  /// Row `n`'s edit as `logUpdate` writes an update (the log's record of it).
  let logStepRow: (FieldStepColumn<Root, Codec>, Int, inout [UInt8]) -> Void
  /// Keeps an update as a row of the field's history column (`FieldStepColumn`), and
  /// makes row `n` into its update again; made here like `writeUpdate`, so the typed
  /// arrays are reached by specialized code.
  let appendStepRow: (PropertyUpdate<Root, Codec>, FieldStepColumn<Root, Codec>) -> Int?
  let stepRowUpdate: (FieldStepColumn<Root, Codec>, Int) -> PropertyUpdate<Root, Codec>
  /// Writes a row's new value (the flag true) or old one into its record (`undo`/`redo`
  /// of a kept step without making its update again).
  let writeStepRow: (FieldStepColumn<Root, Codec>, Int, inout Document<Root>, Bool) -> Void
  /// Loading, made in `init` like `encodeValue` and `storeDecoded`: sets the field from the
  /// value at the reader, read straight from the file's bytes (`FieldCodec.read(from:texts:)`),
  /// so loading builds no `JSONValue` per field. False when the value does not fit.
  private let storeFromReader: (inout JSONReader, inout Root, inout TextArena) throws(JSONSyntaxError) -> Bool
  /// Writes the field as a member, its key encoded once, straight to the writer
  /// (`FieldCodec.write(_:to:)`): saving builds no `JSONValue` per field.
  private let writeMember: (UnsafePointer<Root>, inout JSONWriter) -> Void
  /// `writeValue(_:to:)`, made in `init` like `writeMember`: the value without its key.
  private let writeBareValue: (UnsafePointer<Root>, inout JSONWriter) -> Bool
  /// `warmValue(at:)`, made in `init` like `writeBareValue`.
  private let warmStoredValue: (UnsafePointer<Root>) -> Void
  /// Filters, sort and bulk edits, made in `init` like the closures above.
  let queries: FieldQueries<Root, Codec>

  /// A field whose value lives at `slot`: at a key path (`FieldSlot(_:)`) or a custom
  /// member's key (`FieldSlot(customKey:)`).
  init(
    name: String, slot: FieldSlot<Root, Value>, codec: Codec, isCustom: Bool,
    elementTest: FieldQueries<Root, Codec>.ElementTest? = nil,
    listEdit: (@Sendable (Value?, ValueToken, Bool) throws(FieldError) -> Value?)?
  ) {
    self.name = name
    self.slot = slot
    self.codec = codec
    self.isCustom = isCustom
    self.listEdit = listEdit
    (encodeValue, storeDecoded, storeFromReader, writeMember) = Self.fileAccessors(name, slot, codec)
    writeBareValue = { record, writer in
      guard let value = slot.value(at: record) else { return false }
      codec.write(value, to: &writer)
      return true
    }
    warmStoredValue = { record in slot.warmValue(at: record) { codec.warm($0) } }
    readValue = { record in slot.value(in: record) }
    compareValues = { first, second in slot.value(in: first) == slot.value(in: second) }
    compareRead = { reader, record in
      var texts = TextArena.single
      guard let read = try? codec.read(from: &reader, texts: &texts) else { return nil }
      return slot.value(at: record) == read
    }
    setter = Self.makeSetter(slot, codec)
    let head = EditStep.Head(field: name, isCustom: isCustom)
    rowSetter = Self.makeRowSetter(slot, codec, head)
    writeUpdate = Self.makeUpdateWriter(slot)
    appendStepRow = { update, column in
      column.rows.append(record: update.record, old: update.old, new: update.new, action: update.action)
    }
    writeStepRow = { column, row, document, forward in
      let (record, old, new, _) = column.rows.row(row)
      document.withMutableRecord(numbered: record) { record in slot.store(forward ? new : old, at: record) }
    }
    stepRowUpdate = { column, row in
      let (record, old, new, action) = column.rows.row(row)
      return PropertyUpdate(record: record, field: column.field, old: old, new: new, action: action)
    }
    let encode = Self.makeEditEncoder(name: name, isCustom: isCustom, codec)
    encodeUpdate = { update, out in encode(update.action, update.record, update.old, update.new, &out) }
    let log = { (action: EditAction, record: RecordNumber, old: Value?, new: Value?, out: inout [UInt8]) in
      head.append(action, record: record, old: old, new: new, of: codec, to: &out)
    }
    logUpdate = { update, out in log(update.action, update.record, update.old, update.new, &out) }
    logStepRow = { column, row, out in
      let (record, old, new, action) = column.rows.row(row)
      log(action, record, old, new, &out)
    }
    queries = FieldQueries(slot: slot, codec: codec, listEdit: listEdit, elementTest: elementTest)
  }

  /// Parses and checks the token, compares it with the field's value read in place (the
  /// record is not copied: a copy retains every field of it) and makes the update. When
  /// writing, the old value moves out of the record into the update (`FieldSlot.exchange`)
  /// and the new one takes its place.
  private static func makeSetter(_ slot: FieldSlot<Root, Value>, _ codec: Codec)
    -> (KeyPathField<Root, Codec>, SetValue, UnsafeMutablePointer<Root>, RecordNumber, Bool)
    throws(FieldError) ->
    PropertyUpdate<Root, Codec>?
  {
    { (field, token, record, number, writing) throws(FieldError) -> PropertyUpdate<Root, Codec>? in
      let value = try checkedValue(field.name, token, codec)
      guard let old = slot.replace(with: value, at: record, writing: writing) else { return nil }
      return PropertyUpdate(record: number, field: field, old: old, new: value, action: .set)
    }
  }

  /// The value `input` means for the field, checked by its rules; what a `set` writes.
  @inline(__always)
  private static func checkedValue(_ name: String, _ input: SetValue, _ codec: Codec) throws(FieldError)
    -> Value
  {
    guard !codec.isReadOnly else { throw .readOnly(name) }
    guard let value = input.parsed(by: codec) else {
      throw .invalidValue(field: name, expected: codec.type.expectation, found: input.token.description)
    }
    if let rule = codec.brokenRule(value) { throw .brokenRule(field: name, message: rule) }
    return value
  }

  /// `makeSetter`'s writing form, whose edit becomes a row of the store's column for the
  /// field (made when the store has none) instead of an object: the old value moves out
  /// of the record into the row, the new one is written in its place, and the row's slot
  /// is appended. The log's form of the step (`head`'s, `FieldStepColumn.lastStep`) is
  /// written as well, from the values in hand: read back from the row, they were copied
  /// out of it first. Checks the token before anything changes; `.notRows`, having done
  /// nothing, when the store has no column left.
  private static func makeRowSetter(_ slot: FieldSlot<Root, Value>, _ codec: Codec, _ head: EditStep.Head)
    -> (
      KeyPathField<Root, Codec>, SetValue, UnsafeMutablePointer<Root>, RecordNumber, inout StepStore<Root>
    )
    throws(FieldError) -> StepRowWrite<Root>
  {
    { (field, token, record, number, store) throws(FieldError) -> StepRowWrite<Root> in
      let value = try checkedValue(field.name, token, codec)
      guard
        let (index, found) = store.columnForRow(
          of: ObjectIdentifier(field), make: { FieldStepColumn(field: field) })
      else { return .notRows }
      guard let old = slot.replace(with: value, at: record, writing: true) else { return .unchanged }
      let column = unsafeDowncast(found, to: FieldStepColumn<Root, Codec>.self)
      column.lastStep.removeAll(keepingCapacity: true)
      head.append(.set, record: number, old: old, setTo: value, of: codec, to: &column.lastStep)
      // A new value is always there, so the row is always made.
      guard let row = column.rows.append(record: number, old: consume old, new: consume value, action: .set)
      else {
        preconditionFailure("a set's row has its new value")
      }
      column.lastStepRow = row
      store.appendRowSlot(column: index, row: row)
      return .appended(EditChange(column: column, row: row))
    }
  }

  /// Writes an update's value into its record, in place.
  private static func makeUpdateWriter(_ slot: FieldSlot<Root, Value>)
    -> (PropertyUpdate<Root, Codec>, inout Document<Root>, Bool) -> Void
  {
    { update, document, forward in
      document.withMutableRecord(numbered: update.record) { record in
        slot.store(forward ? update.new : update.old, at: record)
      }
    }
  }

  /// An edit as `Command.encoded()` spells it in compact JSON (see `FieldEdit.appendEncoded`):
  /// `["set", 17, "title", ["a"], ["b"]]` — the action, the record's number, the field (a
  /// custom key as `["color"]`), then the old and the new value each in a one-element
  /// list, `[]` when absent. What is the same for every edit of the field is encoded once.
  private static func makeEditEncoder(name: String, isCustom: Bool, _ codec: Codec)
    -> (EditAction, RecordNumber, Value?, Value?, inout [UInt8]) -> Void
  {
    let head = EditRecordHead(field: name, isCustom: isCustom)
    // The rest goes in a byte at a time: appending a string literal's UTF-8 went through a
    // generic copy of the view (about 170 instructions each).
    let (open, close, comma, space) = (
      UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: " ")
    )
    return { action, record, old, new, out in
      head.append(action, record: record, to: &out)
      if let old { codec.appendForCommand(old, to: &out) }
      out.append(close)
      out.append(comma)
      out.append(space)
      out.append(open)
      if let new { codec.appendForCommand(new, to: &out) }
      out.append(close)
      out.append(close)
    }
  }

  /// The closures behind `json(in:)`, `decode(_:into:)`, `read(from:into:)` and
  /// `write(_:to:)`, each reading or writing the value through `slot`.
  private static func fileAccessors(_ name: String, _ slot: FieldSlot<Root, Value>, _ codec: Codec)
    -> (
      encodeValue: (Root) -> JSONValue?, storeDecoded: (JSONValue, inout Root, inout TextArena) -> Bool,
      storeFromReader: (inout JSONReader, inout Root, inout TextArena) throws(JSONSyntaxError) -> Bool,
      writeMember: (UnsafePointer<Root>, inout JSONWriter) -> Void
    )
  {
    let key = JSONWriter.Key(name)
    let encodeValue = { (record: Root) -> JSONValue? in
      slot.value(in: record).map(codec.encode)
    }
    let storeDecoded = { (json: JSONValue, record: inout Root, texts: inout TextArena) -> Bool in
      guard let value = codec.decode(json, texts: &texts) else { return false }
      slot.store(value, in: &record)
      return true
    }
    let storeFromReader = {
      (reader: inout JSONReader, record: inout Root, texts: inout TextArena) throws(JSONSyntaxError) -> Bool
      in
      guard let value = try codec.read(from: &reader, texts: &texts) else { return false }
      slot.store(value, in: &record)
      return true
    }
    let writeMember = { (record: UnsafePointer<Root>, writer: inout JSONWriter) in
      guard let value = slot.value(at: record) else { return }
      writer.key(key)
      codec.write(value, to: &writer)
    }
    return (encodeValue, storeDecoded, storeFromReader, writeMember)
  }

  /// A declared field.
  convenience init(_ name: String, _ keyPath: WritableKeyPath<Root, Value?>, _ codec: Codec) {
    self.init(name, FieldSlot(keyPath), codec)
  }

  /// A declared field at `slot`.
  convenience init(_ name: String, _ slot: FieldSlot<Root, Value>, _ codec: Codec) {
    self.init(name: name, slot: slot, codec: codec, isCustom: false, listEdit: nil)
  }

  public var type: FieldType { codec.type }
  public var isReadOnly: Bool { codec.isReadOnly }
  public var rules: String { codec.rules }
  public var about: String? { codec.about }
  /// Set by `init(list:_:_:)`, the initializer for a `ListFieldCodec`.
  public var isList: Bool { listEdit != nil }
  public var completions: [String] { codec.completions }
  public var cellReading: CellReading { codec.cellReading }

  public func json(in record: Root) -> JSONValue? {
    encodeValue(record)
  }

  public func sameValue(in first: Root, and second: Root) -> Bool {
    compareValues(first, second)
  }

  public func holdsValue(readFrom reader: inout JSONReader, in record: UnsafePointer<Root>) -> Bool? {
    compareRead(&reader, record)
  }

  public func write(_ record: UnsafePointer<Root>, to writer: inout JSONWriter) {
    writeMember(record, &writer)
  }

  public func warmValue(at record: UnsafePointer<Root>) {
    warmStoredValue(record)
  }

  public func writeValue(_ record: UnsafePointer<Root>, to writer: inout JSONWriter) -> Bool {
    writeBareValue(record, &writer)
  }

  public func display(in record: Root) -> String? {
    readValue(record).map(codec.display)
  }

  public func parseCheckedJSON(_ token: ValueToken) throws(FieldError) -> JSONValue {
    guard let value = codec.parse(token) else {
      throw .invalidValue(field: name, expected: codec.type.expectation, found: token.description)
    }
    if let rule = codec.brokenRule(value) { throw .brokenRule(field: name, message: rule) }
    return codec.encode(value)
  }

  public func parseJSON(_ token: ValueToken) throws(FieldError) -> JSONValue {
    guard let value = codec.parse(token) else {
      throw .invalidValue(field: name, expected: codec.type.expectation, found: token.description)
    }
    return codec.encode(value)
  }

  public func read(from reader: inout JSONReader, into record: inout Root, texts: inout TextArena)
    throws(JSONSyntaxError) -> Bool
  {
    try storeFromReader(&reader, &record, &texts)
  }

  public func decode(_ json: JSONValue, into record: inout Root, texts: inout TextArena) throws(FieldError) {
    guard storeDecoded(json, &record, &texts) else {
      throw .invalidValue(field: name, expected: codec.type.expectation, found: FieldError.found(json))
    }
  }

  public func makeSet(_ token: ValueToken, for record: Root, numbered number: RecordNumber) throws(FieldError)
    -> (any FieldEdit<Root>)?
  {
    try withUnsafePointer(to: record) { (pointer) throws(FieldError) in
      try setter(self, SetValue(token), UnsafeMutablePointer(mutating: pointer), number, false)
    }
  }

  public func makeSet(_ token: ValueToken, in record: UnsafePointer<Root>, numbered number: RecordNumber)
    throws(FieldError) -> (any FieldEdit<Root>)?
  {
    try setter(self, SetValue(token), UnsafeMutablePointer(mutating: record), number, false)
  }

  public func applySet(
    _ value: SetValue, in record: UnsafeMutablePointer<Root>, numbered number: RecordNumber
  )
    throws(FieldError) -> (any FieldEdit<Root>)?
  {
    try setter(self, value, record, number, true)
  }

  public func applySet(
    _ value: SetValue, in record: UnsafeMutablePointer<Root>, numbered number: RecordNumber,
    into store: inout StepStore<Root>
  ) throws(FieldError) -> StepRowWrite<Root> {
    try rowSetter(self, value, record, number, &store)
  }

  public func makeUnset(for record: Root, numbered number: RecordNumber) throws(FieldError)
    -> (any FieldEdit<Root>)?
  {
    guard !codec.isReadOnly else { throw .readOnly(name) }
    guard codec.type.isOptional else { throw .notOptional(name) }
    return edit(of: record, numbered: number, to: nil, action: .unset)
  }

  public func makeListEdit(_ token: ValueToken, adding: Bool, for record: Root, numbered number: RecordNumber)
    throws(FieldError)
    -> (any FieldEdit<Root>)?
  {
    guard let listEdit else { throw .notAList(name) }
    guard !codec.isReadOnly else { throw .readOnly(name) }
    guard let value = try listEdit(readValue(record), token, adding) else { return nil }
    if let rule = codec.brokenRule(value) { throw .brokenRule(field: name, message: rule) }
    return edit(of: record, numbered: number, to: value, action: adding ? .add : .remove)
  }

  public func decodeEdit(record: RecordNumber, old: JSONValue?, new: JSONValue?, action: EditAction)
    throws(FieldError) -> any FieldEdit<Root>
  {
    PropertyUpdate(
      record: record, field: self, old: try old.map(decodedFromCommand),
      new: try new.map(decodedFromCommand),
      action: action)
  }

  private func decodedFromCommand(_ json: JSONValue) throws(FieldError) -> Value {
    guard let value = codec.decodeFromCommand(json) else {
      throw .invalidValue(field: name, expected: codec.type.expectation, found: FieldError.found(json))
    }
    return value
  }

  public func matcher(_ op: FilterOperator, _ operand: FilterOperand) throws(FieldError) -> RecordMatcher<
    Root
  > {
    try queries.matcher(name, op, operand)
  }

  public var recordOrder: RecordOrder<Root> { queries.order }

  public func applyBulk(_ change: BulkChange, at positions: [Int], in document: inout Document<Root>)
    throws(FieldError) -> (any BulkFieldEdit<Root>)?
  {
    try queries.applyBulk(self, change, positions, &document)
  }

  public func decodeBulk(action: EditAction, records: [RecordNumber], olds: [JSONValue?], news: BulkNewValues)
    throws(FieldError) -> any BulkFieldEdit<Root>
  {
    var oldValues: [Value?] = []
    oldValues.reserveCapacity(olds.count)
    for old in olds { oldValues.append(try old.map(decodedFromCommand)) }
    let newValues: BulkValues<Value>
    switch news {
    case .same(let value): newValues = .same(try value.map(decodedFromCommand))
    case .each(let values):
      var decoded: [Value?] = []
      decoded.reserveCapacity(values.count)
      for value in values { decoded.append(try value.map(decodedFromCommand)) }
      newValues = .each(decoded)
    }
    return BulkUpdate(field: self, action: action, records: records, olds: oldValues, news: newValues)
  }

  /// The update from the record's current value to `value`, or `nil` when that changes nothing.
  private func edit(of record: Root, numbered number: RecordNumber, to value: Value?, action: EditAction)
    -> PropertyUpdate<Root, Codec>?
  {
    let old = readValue(record)
    guard old != value else { return nil }
    return PropertyUpdate(record: number, field: self, old: old, new: value, action: action)
  }
}

extension KeyPathField where Codec: ListFieldCodec {
  /// A list field: one element can also be added or removed, as one edit of the whole list.
  convenience init(list name: String, _ keyPath: WritableKeyPath<Root, Value?>, _ codec: Codec) {
    self.init(list: name, FieldSlot(keyPath), codec)
  }

  /// A declared list field at `slot`.
  convenience init(list name: String, _ slot: FieldSlot<Root, Value>, _ codec: Codec) {
    self.init(
      name: name, slot: slot, codec: codec, isCustom: false,
      elementTest: { token in
        guard let element = codec.parseElement(token) else { return nil }
        return { value in codec.contains(value, element) }
      },
      listEdit: { (current, token, adding) throws(FieldError) -> Value? in
        guard let element = codec.parseElement(token) else {
          throw .invalidValue(field: name, expected: codec.elementExpectation, found: token.description)
        }
        var elements = current.map(codec.elements) ?? []
        // The same element is the same as a filter's `=` finds it (strings: by their bytes).
        if adding {
          guard !elements.contains(where: { codec.sameElement($0, element) }) else { return nil }
          elements.append(element)
        } else {
          guard let index = elements.firstIndex(where: { codec.sameElement($0, element) }) else {
            throw .elementMissing(field: name, element: codec.displayElement(element))
          }
          elements.remove(at: index)
        }
        return codec.value(from: elements)
      })
  }
}

/// The fixed parts of an encoded edit, as bytes made once.
