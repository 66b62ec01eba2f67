/// The commands of the history's steps, one slot per step number: what `History` keeps
/// instead of an array of `Command`s.
///
/// A one-field edit — nearly every step — is not kept as its `PropertyUpdate` object
/// (an 80-byte block from `malloc` beside a 24-byte command) but as a row of its field's
/// column (`FieldStepColumn`): the record's number, the old and the new value each in a
/// typed array, and one byte for which values are present and the action. The step's slot
/// is one word naming the column and the row. Every other command (a group, an insert,
/// a step read back from the log, …) is kept whole in `others`. Reading a slot back gives
/// the same command: a row is made into a `PropertyUpdate` again (one allocation, when a
/// step is undone, redone or listed).
///
/// Every array here is a `SegmentedArray`: a long history grows without copying what it
/// keeps, and a copy of the store (a trial run for `preview`) shares the segments.
///
/// A one-field `set` is written into its row from the start (`FieldAccessor.applySet(_:in:numbered:into:)`):
/// the field finds its column (`columnForRow(of:make:)`), appends the row and its slot
/// (`appendRowSlot(column:row:)`), and no edit object is made at all.
///
/// Costs: `append` O(1) plus a scan of the columns (one per field ever edited, at most
/// `columnLimit`); reading a slot O(1); `removeFirst(k)` O(k).
///
/// Public only because `FieldAccessor`'s row-writing requirement names it; nothing in it
/// is public.
public struct StepStore<Root: Record>: Sendable {
  /// A slot: `0` for no step; otherwise its low three bits say what it holds (`Tag`) and
  /// the rest where: a row as `column << 3 | row << 19`, another command as `index << 3`.
  private var slots = SegmentedArray<UInt64>()
  /// The commands that are not rows, in step order; `nil` once dropped.
  private var others = SegmentedArray<Command<Root>?>()
  /// How many of `others` were removed from the front (an index in a slot is absolute).
  private var othersRemoved = 0
  /// One column per field whose edits became rows, in the order first met.
  private var columns: [StepColumn<Root>] = []
  /// The column the last row went to: asked first, as a run of edits is mostly of one field.
  private var lastColumn = 0

  /// The most columns kept: edits of a field met after that (a custom field is a new
  /// accessor each time it is named) are kept whole.
  static var columnLimit: Int { 256 }

  private enum Tag: UInt64 {
    case row = 1
    case droppedRow = 2
    case other = 3
    case droppedOther = 4
  }

  /// A store with `count` empty slots.
  init(emptySlots count: Int) {
    for _ in 0..<count { slots.append(0) }
  }

  /// How many slots there are (kept, dropped and empty).
  var count: Int { slots.count }

  /// Whether slot `index` holds a command that was not dropped.
  func isKept(_ index: Int) -> Bool {
    let slot = slots[index]
    return slot & 7 == Tag.row.rawValue || slot & 7 == Tag.other.rawValue
  }

  /// The command of slot `index`: `nil` for an empty or dropped slot. A row is made into
  /// its `PropertyUpdate` again.
  subscript(index: Int) -> Command<Root>? {
    let slot = slots[index]
    switch slot & 7 {
    case Tag.row.rawValue:
      return columns[Int((slot >> 3) & 0xFFFF)].command(atRow: Int(slot >> 19))
    case Tag.other.rawValue:
      return others[Int(slot >> 3) - othersRemoved]
    default:
      return nil
    }
  }

  /// When slot `index` holds a kept row: writes its new value (`forward`) or its old one
  /// into its record, as applying or reverting its edit would, and returns true; makes no
  /// edit object. False (and nothing written) for any other slot.
  func writeRow(_ index: Int, forward: Bool, in document: inout Document<Root>) -> Bool {
    let slot = slots[index]
    guard slot & 7 == Tag.row.rawValue else { return false }
    columns[Int((slot >> 3) & 0xFFFF)].write(row: Int(slot >> 19), forward: forward, in: &document)
    return true
  }

  /// The record slot `index`'s command edits when it is a kept row, read from the row
  /// without making its edit; `nil` for any other slot. O(1).
  func rowRecord(_ index: Int) -> RecordNumber? {
    let slot = slots[index]
    guard slot & 7 == Tag.row.rawValue else { return nil }
    return columns[Int((slot >> 3) & 0xFFFF)].record(ofRow: Int(slot >> 19))
  }

  /// The name of slot `index`'s command when it is a kept row ("Set priority"), made
  /// without the edit object; `nil` for any other slot.
  func rowName(_ index: Int) -> String? {
    let slot = slots[index]
    guard slot & 7 == Tag.row.rawValue else { return nil }
    return columns[Int((slot >> 3) & 0xFFFF)].name(ofRow: Int(slot >> 19))
  }

  /// Appends a slot for `command` (an empty one for `nil`).
  mutating func append(_ command: Command<Root>?) {
    guard let command else {
      slots.append(0)
      return
    }
    if case .edit(let edit) = command, let slot = appendRow(edit) {
      slots.append(slot)
      return
    }
    slots.append(UInt64(others.count + othersRemoved) << 3 | Tag.other.rawValue)
    others.append(command)
  }

  /// The column that keeps the rows of the field `field` (the accessor object), and its
  /// index, made by `make` when the store has none and a column is left; `nil` when none
  /// is. Ready for a row (`columnIndex(where:make:)`).
  mutating func columnForRow(of field: ObjectIdentifier, make: () -> StepColumn<Root>)
    -> (index: Int, column: StepColumn<Root>)?
  {
    guard let index = columnIndex(where: { $0.fieldID == field }, make: make) else { return nil }
    return (index, columns[index])
  }

  /// Appends the slot of row `row` of column `column`, which the caller just appended.
  mutating func appendRowSlot(column: Int, row: Int) {
    slots.append(Self.rowSlot(column: column, row: row))
  }

  /// Appends `edit` as a row of its field's column (made when first needed); the slot that
  /// names it, or `nil` when it cannot be a row (no column left, no value on either side).
  private mutating func appendRow(_ edit: any FieldEdit<Root>) -> UInt64? {
    guard
      let column = columnIndex(
        where: { $0.owns(edit) }, make: { (edit as? any StepColumnSource<Root>)?.makeStepColumn() })
    else { return nil }
    guard let row = columns[column].append(edit) else { return nil }
    return Self.rowSlot(column: column, row: row)
  }

  /// The index of the column `matches` picks (the one used last is asked first), else of a
  /// new one from `make` while a column is left; `nil` when there is none. The column is
  /// this store's own (a copy of the store shares its columns: the first to append gets
  /// its own), ready for a row. O(columns) at worst, O(1) for a run of edits of one field.
  private mutating func columnIndex(
    where matches: (StepColumn<Root>) -> Bool, make: () -> StepColumn<Root>?
  ) -> Int? {
    var found: Int?
    if lastColumn < columns.count, matches(columns[lastColumn]) {
      found = lastColumn
    } else {
      for index in columns.indices where matches(columns[index]) {
        found = index
        break
      }
    }
    if found == nil, columns.count < Self.columnLimit, let made = make() {
      columns.append(made)
      found = columns.count - 1
    }
    guard let column = found else { return nil }
    if !isKnownUniquelyReferenced(&columns[column]) { columns[column] = columns[column].copy() }
    lastColumn = column
    return column
  }

  /// The slot that names row `row` of column `column`.
  private static func rowSlot(column: Int, row: Int) -> UInt64 {
    UInt64(row) << 19 | UInt64(column) << 3 | Tag.row.rawValue
  }

  /// What a slot holds, as `shape` lists it.
  enum SlotShape: Equatable {
    case empty
    case row(column: Int, row: Int)
    case other(Int)
    case droppedRow
    case droppedOther
  }

  /// What each slot holds (for tests and checks: O(slots)).
  var shape: [SlotShape] {
    slots.map { slot in
      switch slot & 7 {
      case 0: .empty
      case Tag.row.rawValue: .row(column: Int((slot >> 3) & 0xFFFF), row: Int(slot >> 19))
      case Tag.other.rawValue: .other(Int(slot >> 3))
      case Tag.droppedRow.rawValue: .droppedRow
      default: .droppedOther
      }
    }
  }

  /// Whether every command ever appended is a row (none is kept whole in `others`). O(1).
  var holdsOnlyRows: Bool { others.isEmpty && othersRemoved == 0 }

  /// How many rows the columns hold, and how many commands `others` holds (dropped ones
  /// too): what the slots name, no more once the front is removed (for tests).
  var held: (rows: Int, others: Int) {
    (columns.reduce(0) { $0 + $1.rowCount }, others.count)
  }

  /// Drops slot `index`'s command: a kept one is released (another command at once; a
  /// row's values when the front of the store is removed past it).
  mutating func drop(_ index: Int) {
    let slot = slots[index]
    switch slot & 7 {
    case Tag.row.rawValue:
      slots[index] = slot & ~7 | Tag.droppedRow.rawValue
    case Tag.other.rawValue:
      others[Int(slot >> 3) - othersRemoved] = nil
      slots[index] = slot & ~7 | Tag.droppedOther.rawValue
    default:
      break
    }
  }

  /// Removes the first `k` slots and what they hold: rows and commands are kept in step
  /// order, so theirs are the front of each column and of `others`. O(k).
  mutating func removeFirst(_ k: Int) {
    var rows = [Int](repeating: 0, count: columns.count)
    var otherCount = 0
    for index in 0..<k {
      let slot = slots[index]
      switch slot & 7 {
      case Tag.row.rawValue, Tag.droppedRow.rawValue: rows[Int((slot >> 3) & 0xFFFF)] += 1
      case Tag.other.rawValue, Tag.droppedOther.rawValue: otherCount += 1
      default: break
      }
    }
    for column in columns.indices where rows[column] > 0 {
      if !isKnownUniquelyReferenced(&columns[column]) { columns[column] = columns[column].copy() }
      columns[column].removeFirst(rows[column])
    }
    others.removeFirst(otherCount)
    othersRemoved += otherCount
    slots.removeFirst(k)
  }
}

/// The rows of one field's edits in a `StepStore`: see `FieldStepColumn`, its one kind.
/// A class, so that the store holds one word per column whatever the field's value type
/// and can tell whether it shares one (`isKnownUniquelyReferenced`: a copy of the store
/// copies a column before changing it, `copy`). The methods here are abstract.
class StepColumn<Root: Record>: @unchecked Sendable {
  /// The field whose edits the column keeps (its accessor object): the column's key.
  let fieldID: ObjectIdentifier

  init(fieldID: ObjectIdentifier) {
    self.fieldID = fieldID
  }

  /// Whether `edit` is of the edit type this column holds and of its field (the same
  /// accessor object): the column's key. A few instructions: no witness table is looked
  /// up, as making `edit.field` into an existential would.
  func owns(_ edit: any FieldEdit<Root>) -> Bool { preconditionFailure("StepColumn.owns is abstract") }

  /// Appends `edit` as a row; its number, or `nil` when it has no value on either side.
  /// Later rows get higher numbers. Needs an edit this column `owns` (the store asks
  /// first; the check is not made twice on every step).
  func append(_ edit: any FieldEdit<Root>) -> Int? { preconditionFailure("StepColumn.append is abstract") }
  /// Row `row`'s edit (`row` as `append` returned it), made again. O(1), one allocation.
  func command(atRow row: Int) -> Command<Root> { preconditionFailure("StepColumn.command is abstract") }
  /// Writes row `row`'s new value (`forward`) or old one into its record: what applying or
  /// reverting its edit does, without making the edit.
  func write(row: Int, forward: Bool, in document: inout Document<Root>) {
    preconditionFailure("StepColumn.write is abstract")
  }
  /// Appends row `row`'s edit as the history log keeps a step (`EditStep`), without
  /// making the edit.
  func appendStep(row: Int, to out: inout [UInt8]) {
    preconditionFailure("StepColumn.appendStep is abstract")
  }
  /// Row `row`'s edit's name, as `Command.name` says it ("Set priority").
  func name(ofRow row: Int) -> String { preconditionFailure("StepColumn.name is abstract") }
  /// The record row `row` edits. O(1); makes nothing.
  func record(ofRow row: Int) -> RecordNumber { preconditionFailure("StepColumn.record is abstract") }
  /// How many rows are held (appended and not removed).
  var rowCount: Int { preconditionFailure("StepColumn.rowCount is abstract") }
  /// Frees the first `k` rows still held; later rows keep their numbers.
  func removeFirst(_ k: Int) { preconditionFailure("StepColumn.removeFirst is abstract") }
  /// A column with the same rows, sharing their segments.
  func copy() -> StepColumn<Root> { preconditionFailure("StepColumn.copy is abstract") }
}

/// An edit that can be kept as a row of a `StepColumn` (a `PropertyUpdate`).
protocol StepColumnSource<Root>: FieldEdit {
  /// An empty column for the history's edits of this edit's field.
  func makeStepColumn() -> StepColumn<Root>
}

/// The one-field edits of one field, as rows (`FieldStepRows`). Appending, writing and making
/// a row again run the field's closures (`KeyPathField.appendStepRow`, `writeStepRow`,
/// `stepRowUpdate`, `logStepRow`), made
/// where the value type is known: the column's own methods are generic code that would
/// look up the value type's metadata on every call.
final class FieldStepColumn<Root: Record, Codec: FieldCodec>: StepColumn<Root>, @unchecked Sendable {
  let field: KeyPathField<Root, Codec>
  var rows: FieldStepRows<Codec.Value>
  /// The one edit type this column holds, checked before an edit is cast to it.
  private let updateType = ObjectIdentifier(PropertyUpdate<Root, Codec>.self)
  /// Row `lastStepRow`'s step as the log keeps it, written by the `set` that appended the
  /// row while it held the values (`KeyPathField.applySet`); `appendStep` copies these
  /// bytes rather than reading the row's values back. `-1`: no row's.
  var lastStep: [UInt8] = []
  var lastStepRow = -1

  init(field: KeyPathField<Root, Codec>, rows: FieldStepRows<Codec.Value> = FieldStepRows()) {
    self.field = field
    self.rows = rows
    super.init(fieldID: ObjectIdentifier(field))
  }

  override func owns(_ edit: any FieldEdit<Root>) -> Bool {
    ObjectIdentifier(type(of: edit)) == updateType
      && unsafeDowncast(edit, to: PropertyUpdate<Root, Codec>.self).typedField === field
  }

  override func append(_ edit: any FieldEdit<Root>) -> Int? {
    field.appendStepRow(unsafeDowncast(edit, to: PropertyUpdate<Root, Codec>.self), self)
  }

  override func command(atRow row: Int) -> Command<Root> { .edit(field.stepRowUpdate(self, row)) }

  override func appendStep(row: Int, to out: inout [UInt8]) {
    guard row == lastStepRow else { return field.logStepRow(self, row, &out) }
    // Reached in place (a mutating access changes nothing here): a plain read of the
    // object's array retained and released it on every edit.
    lastStep.withUnsafeMutableBufferPointer { out.append(contentsOf: UnsafeBufferPointer($0)) }
  }

  override func write(row: Int, forward: Bool, in document: inout Document<Root>) {
    field.writeStepRow(self, row, &document, forward)
  }

  override func name(ofRow row: Int) -> String { "\(rows.action(ofRow: row).verb) \(field.name)" }

  override func record(ofRow row: Int) -> RecordNumber { rows.record(ofRow: row) }

  override var rowCount: Int { rows.count }

  override func removeFirst(_ k: Int) { rows.removeFirst(k) }

  override func copy() -> StepColumn<Root> { FieldStepColumn(field: field, rows: rows) }
}

/// One field's one-field edits as rows: the record's number, a byte of flags (bit 0: an
/// old value, bit 1: a new value, bits 2–3: the action's index) and the two values in
/// typed arrays. An absent value's place holds the other one (a copy of a value, no new
/// storage), so an edit that has neither is not a row. Rows are numbered from 0 in the
/// order appended; `removeFirst` frees the oldest and the rest keep their numbers.
///
/// A row of an integer field is 21 bytes; of a string field 37 plus what the strings hold.
struct FieldStepRows<Value> {
  private var records = SegmentedArray<UInt32>()
  private var flags = SegmentedArray<UInt8>()
  private var olds = SegmentedArray<Value>()
  private var news = SegmentedArray<Value>()
  /// How many rows `removeFirst` freed: row `n` is at `n - removed`.
  private var removed = 0

  init() {}

  /// How many rows are held.
  var count: Int { records.count }

  /// Appends a row; its number, or `nil` when neither value is there. The values are moved
  /// in: one that is there is not copied (a copy retains what it refers to, and an old
  /// value's memory, moved out of its record, is otherwise not touched again), and only
  /// an absent one's place takes a copy of the other.
  mutating func append(record: RecordNumber, old: consuming Value?, new: consuming Value?, action: EditAction)
    -> Int?
  {
    let hasOld = old != nil
    let hasNew = new != nil
    // One switch on each value moved in: a switch on a tuple of the two copied them.
    switch consume old {
    case .some(let old):
      olds.append(old)
      switch consume new {
      case .some(let new): news.append(new)
      case .none: news.append(old)
      }
    case .none:
      switch consume new {
      case .some(let new):
        olds.append(new)
        news.append(new)
      case .none:
        return nil
      }
    }
    records.append(record.value)
    flags.append((hasOld ? 1 : 0) | (hasNew ? 2 : 0) | UInt8(action.index) << 2)
    return removed + records.count - 1
  }

  /// Row `row` (a number `append` returned, not freed).
  func row(_ row: Int) -> (record: RecordNumber, old: Value?, new: Value?, action: EditAction) {
    let index = row - removed
    let flag = flags[index]
    return (
      RecordNumber(records[index]), flag & 1 == 0 ? nil : olds[index], flag & 2 == 0 ? nil : news[index],
      EditAction.allCases[Int(flag >> 2)]
    )
  }

  /// The record row `row` edits.
  func record(ofRow row: Int) -> RecordNumber { RecordNumber(records[row - removed]) }

  /// Row `row`'s action.
  func action(ofRow row: Int) -> EditAction { EditAction.allCases[Int(flags[row - removed] >> 2)] }

  /// Frees the first `k` rows held.
  mutating func removeFirst(_ k: Int) {
    records.removeFirst(k)
    flags.removeFirst(k)
    olds.removeFirst(k)
    news.removeFirst(k)
    removed += k
  }
}

extension FieldStepRows: Sendable where Value: Sendable {}
