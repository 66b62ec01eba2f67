/// A document and its undo history, changed only together.
///
/// Every operation either succeeds completely or throws having changed
/// nothing: values are parsed and validated, and the command built, before
/// anything is applied. An edit that would change nothing records nothing.
public struct Editor<Root: Record>: Sendable {
  public internal(set) var document: Document<Root>
  public internal(set) var history: History<Root>
  /// Seconds since 1970 for step timestamps; injectable so tests are repeatable.
  public var clock: @Sendable () -> Double
  /// Steps numbered below this were read back from a log, not made here: each is checked
  /// against the document before it is applied or reverted (a log tied to the file by its
  /// hash fits it; one that does not is refused step by step, never applied blindly).
  package var checkedBelow = 0

  public init(
    document: Document<Root> = Document(), undoLimit: Int = 10_000,
    clock: @escaping @Sendable () -> Double = { 0 }
  ) {
    self.document = document
    self.history = History(limit: undoLimit)
    self.clock = clock
  }

  public var isDirty: Bool { !history.isClean }

  /// Forgets the document's change marks (`Document.markUnchanged`): its file now holds it.
  public mutating func markDocumentUnchanged() {
    document.markUnchanged()
  }

  // MARK: Edits

  /// Sets several fields of one record as one step. Each field may appear once.
  @discardableResult
  mutating func set(_ assignments: FieldAssignments, onRecord id: String) throws(EditError)
    -> EditOutcome<Root>
  {
    guard let position = document.position(ofID: id) else { throw .noSuchRecord(id) }
    return try set(assignments, at: position)
  }

  /// `set(_:onRecord:)` for the record at `position` (the shell knows it from the selection).
  @discardableResult
  public mutating func set(_ assignments: FieldAssignments, at position: Int) throws(EditError)
    -> EditOutcome<Root>
  {
    // One field is the common case, and needs no arrays. The record is read in place (a
    // pointer) and the pair lent, neither copied: in generic code a copy of the record
    // retains every field of it, and one of the pair its two strings.
    if assignments.count == 1 {
      guard position < document.count else { throw .noSuchPosition(position) }
      let number = document.number(at: position)
      return try Self.setOne(
        assignments.head, at: position, numbered: number, time: clock(), document: &document,
        history: &history)
    }
    // A `set` names a handful of fields: a scan of an array beats hashing into a new Set.
    var seen: [String] = []
    var edits: [any FieldEdit<Root>] = []
    guard position < document.count else { throw .noSuchPosition(position) }
    let number = document.number(at: position)
    let found: Void? = try document.withRecord(at: position) { (record) throws(EditError) in
      for assignment in assignments {
        let field = try Self.resolve(assignment, in: record).field
        let name = field.name
        guard !seen.contains(name) else { throw .field(.givenTwice(name)) }
        seen.append(name)
        let made = try Self.wrap { () throws(FieldError) in
          try field.makeSet(assignment.value, in: record, numbered: number)
        }
        if let made { edits.append(made) }
      }
    }
    guard found != nil else { throw .noSuchPosition(position) }
    switch edits.count {
    case 0: return .unchanged
    case 1: return perform(.edit(edits[0]))
    default: return perform(.edits(edits))
    }
  }

  /// Removes an optional or custom field.
  @discardableResult
  public mutating func unset(_ fieldName: String, onRecord id: String) throws(EditError) -> EditOutcome<Root>
  {
    let (record, number) = try existingRecord(id)
    let field = try Self.resolve(FieldAssignment(fieldName, .word("")), in: record)
    let made = try Self.wrap { () throws(FieldError) in try field.makeUnset(for: record, numbered: number) }
    return made.map { perform(.edit($0)) } ?? .unchanged
  }

  /// Adds one element to a list field, or removes one (`tag`/`untag`).
  @discardableResult
  public mutating func editList(_ fieldName: String, _ element: ValueToken, adding: Bool, onRecord id: String)
    throws(EditError) -> EditOutcome<Root>
  {
    let (record, number) = try existingRecord(id)
    let field = try Self.resolve(FieldAssignment(fieldName, element), in: record)
    let made = try Self.wrap { () throws(FieldError) in
      try field.makeListEdit(element, adding: adding, for: record, numbered: number)
    }
    return made.map { perform(.edit($0)) } ?? .unchanged
  }

  /// Creates a record with `id` and the given fields at the end of the document.
  @discardableResult
  public mutating func newRecord(id: String, _ assignments: [FieldAssignment]) throws(EditError)
    -> EditOutcome<Root>
  {
    guard !document.contains(id: id) else { throw .duplicateID(id) }
    var scratch = Document<Root>()
    let number = document.nextNumber
    var fresh = Root(id: id)
    let table = Root.fields
    // A run-time kind's key is a member of the record: it holds the identity's value.
    if table.keepsAllMembers, let key = table.key, let field = table.field(named: key.name) {
      try Self.wrap { () throws(FieldError) in
        try field.decode(key.isInteger ? .number(id) : .string(id), into: &fresh)
      }
    }
    scratch.insert(fresh, numbered: number, at: 0)
    var seen: Set<String> = []
    for assignment in assignments {
      let record = scratch.records[0]
      let field = try Self.resolve(assignment, in: record)
      guard seen.insert(field.name).inserted else { throw .field(.givenTwice(field.name)) }
      try Self.wrap { () throws(FieldError) in
        try field.makeSet(assignment.value, for: record, numbered: number)
      }?
      .apply(to: &scratch)
    }
    var record = scratch.records[0]
    for (name, value) in table.defaults where !seen.contains(name) {
      guard let field = table.field(named: name), field.json(in: record) == nil else { continue }
      try Self.wrap { () throws(FieldError) in try field.decode(value, into: &record) }
    }
    for name in table.requiredNames where table.field(named: name)?.json(in: record) == nil {
      throw .field(.requiredMissing(name))
    }
    return perform(.insert(record, number: number, at: document.count))
  }

  /// Puts `record`, made whole elsewhere (`insert`, which takes it as the file would hold
  /// it), in the document at `position` (`0...count`) as a new record; one undo step, as
  /// `newRecord`'s. Its id must be new and every required field there. O(records) for the
  /// move of the records after it.
  @discardableResult
  public mutating func insertRecord(_ record: Root, at position: Int) throws(EditError) -> EditOutcome<Root> {
    guard (0...document.count).contains(position) else { throw .noSuchPosition(position) }
    guard !document.contains(id: record.id) else { throw .duplicateID(record.id) }
    let table = Root.fields
    for name in table.requiredNames where table.field(named: name)?.json(in: record) == nil {
      throw .field(.requiredMissing(name))
    }
    return perform(.insert(record, number: document.nextNumber, at: position))
  }

  /// Deletes the record at `position`, keeping all of it for undo.
  @discardableResult
  public mutating func deleteRecord(at position: Int) throws(EditError) -> EditOutcome<Root> {
    guard document.records.indices.contains(position) else { throw .noSuchPosition(position) }
    return perform(.delete(document.records[position], number: document.number(at: position), at: position))
  }

  /// Applies a command and records it: the one way a document changes. Also
  /// used to replay decoded commands.
  @discardableResult
  public mutating func perform(_ command: Command<Root>) -> EditOutcome<Root> {
    command.apply(to: &document)
    return record(command)
  }

  /// Records a command the document already holds.
  mutating func record(_ command: Command<Root>) -> EditOutcome<Root> {
    Self.record(command, in: &history, at: clock())
  }

  /// Records `command`, made at `time`, in `history` (`record(_:)` for code that holds the
  /// history apart from the editor).
  private static func record(_ command: Command<Root>, in history: inout History<Root>, at time: Double)
    -> EditOutcome<Root>
  {
    if let step = history.record(command, at: time) { return .recorded(EditChange(command), step: step) }
    return .grouped(EditChange(command))
  }

  /// A one-field `set` of the record at `position`, read and written in place (a copy of
  /// the record in generic code retains every field of it). The edit is written straight
  /// into a history row (`History.recordRow`), with no edit object, wherever the history
  /// keeps rows; else (a small open group, a field past the columns) it is made as an
  /// object, already applied (`applySet`), and recorded. Throws as `set` does, having
  /// changed nothing. Takes the document and the history apart, as the edit is written
  /// into both at once.
  private static func setOne(
    _ assignment: borrowing FieldAssignment, at position: Int, numbered number: RecordNumber, time: Double,
    document: inout Document<Root>, history: inout History<Root>
  ) throws(EditError) -> EditOutcome<Root> {
    // A declared field's index marks that field alone as changed (`ChangeMarks`). The
    // closures below reach the pair through a pointer: capturing it copied its two strings.
    let outcome = try withUnsafePointer(to: assignment) { (pair) throws(EditError) in
      try document.withMutableRecord(
        at: position,
        changingField: {
          (pointer) throws(EditError) -> (EditOutcome<Root>, field: Int?) in
          let (field, declared) = try resolve(pair.pointee, in: UnsafePointer(pointer))
          let outcome = try wrap { () throws(FieldError) -> EditOutcome<Root> in
            let written = try history.recordRow(of: number, at: time) {
              (store) throws(FieldError) -> StepRowWrite<Root> in
              try field.applySet(pair.pointee.input, in: pointer, numbered: number, into: &store)
            }
            if let written { return written }
            guard let edit = try field.applySet(pair.pointee.input, in: pointer, numbered: number) else {
              return .unchanged
            }
            return record(.edit(edit), in: &history, at: time)
          }
          return (outcome, declared)
        })
    }
    guard let outcome else { throw .noSuchPosition(position) }
    return outcome
  }

  /// The steps from the start to now that touched the record numbered `number`, newest
  /// first (`History.steps(touching:)`, which says what it costs): what `log` and `blame`
  /// read. Mutating only to index the steps read back from the log on first use.
  public mutating func steps(touching number: RecordNumber) -> [Int] {
    history.steps(touching: number)
  }

  private func existingRecord(_ id: String) throws(EditError) -> (Root, RecordNumber) {
    guard let position = document.position(ofID: id) else { throw .noSuchRecord(id) }
    return (document.records[position], document.number(at: position))
  }

  /// The field `assignment` names, with its index in the kind's table when it is a
  /// declared one; the record is read (in place) only for any other.
  private static func resolve(_ assignment: FieldAssignment, in record: UnsafePointer<Root>) throws(EditError)
    -> (field: any FieldAccessor<Root>, declared: Int?)
  {
    if let index = assignment.declaredIndex { return (Root.fields.fields[index], index) }
    if !assignment.createsCustomField, let index = Root.fields.index(ofField: assignment.field) {
      return (Root.fields.fields[index], index)
    }
    return (try Self.resolve(assignment, in: record.pointee), nil)
  }

  private static func resolve(_ assignment: FieldAssignment, in record: Root) throws(EditError)
    -> any FieldAccessor<Root>
  {
    try Self.wrap { () throws(FieldError) in
      assignment.createsCustomField
        ? try Root.fields.newCustomField(assignment.field, in: record)
        : try Root.fields.resolve(assignment.field, in: record)
    }
  }

  private static func wrap<T>(_ body: () throws(FieldError) -> T) throws(EditError) -> T {
    do {
      return try body()
    } catch {
      throw .field(error)
    }
  }
}

/// `FIELD VALUE` of `set` and `new`. `createsCustomField` is the explicit form
/// (`+FIELD`) that may add a key the kind does not declare.
///
/// `@unchecked Sendable`: a pair holds a token, or (`init(declared:named:bytes:quoted:)`)
/// bytes lent by the one call that runs a line, on its thread, which never keeps the pair.
public struct FieldAssignment: Equatable, @unchecked Sendable {
  public var field: String {
    didSet { declaredIndex = nil }
  }
  /// The value, as the field is handed it (`SetValue`).
  var input: SetValue
  var createsCustomField: Bool
  /// The field's index in the kind's table when the maker knew it (the fast lane read the
  /// name there): found without comparing names. `nil`: looked up by name.
  var declaredIndex: Int?

  public init(_ field: String, _ value: ValueToken, createsCustomField: Bool = false) {
    self.field = field
    self.input = SetValue(value)
    self.createsCustomField = createsCustomField
  }

  /// The pair of the kind's declared field `name`, at `index` in its table
  /// (`FieldTable.names`), and the word `bytes` (quoted or bare), UTF-8, with no `String`
  /// made of them (the shell's fast lane). The bytes are lent: the pair must not outlive
  /// them, so it is made and used within one call and never kept. Not generic: the caller,
  /// specialized for its kind, reads the name (from here, the table was reached through
  /// the kind's witness and retained, on every `set`).
  package init(declared index: Int, named name: String, bytes: UnsafeBufferPointer<UInt8>, quoted: Bool) {
    self.field = name
    self.input = SetValue(bytes: bytes, quoted: quoted)
    self.createsCustomField = false
    self.declaredIndex = index
  }

  /// The value as a token (made from the bytes, for a pair of
  /// `init(declared:named:bytes:quoted:)`).
  public var value: ValueToken {
    get { input.token }
    set { input = SetValue(newValue) }
  }

  /// Equal when the field, the value (as a token) and the form are: the index is where
  /// the field was found, not part of the pair.
  public static func == (lhs: FieldAssignment, rhs: FieldAssignment) -> Bool {
    lhs.field == rhs.field && lhs.createsCustomField == rhs.createsCustomField && lhs.value == rhs.value
  }
}

/// Why an edit was refused.
public enum EditError: Error, Equatable, Sendable {
  case field(FieldError)
  case noSuchRecord(String)
  case noSuchPosition(Int)
  case duplicateID(String)
}

extension EditError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .field(let error): error.description
    case .noSuchRecord(let id): "no record with id '\(id)'"
    case .noSuchPosition(let position): "no record @\(position + 1)"
    case .duplicateID(let id): "a record with id '\(id)' already exists"
    }
  }
}
