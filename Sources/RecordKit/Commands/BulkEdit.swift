/// What a bulk edit does to one field of every record it touches: `set FIELD VALUE`,
/// `unset FIELD`, `add`/`remove FIELD ELEMENT`, each followed by `where FILTER...`.
public enum BulkChange: Equatable, Sendable {
  case set(ValueToken)
  case unset
  case add(ValueToken)
  case remove(ValueToken)

  var action: EditAction {
    switch self {
    case .set: .set
    case .unset: .unset
    case .add: .add
    case .remove: .remove
    }
  }
}

/// One field's change to many records, as one edit: what a bulk command holds per field.
///
/// It keeps, for each record it changed (and only those: a record that already held the
/// value is not among them), the record's number and its old value, so undo restores each
/// exactly; the new value is kept once when it is the same for all (`set`, `unset`).
/// Class-bound like `FieldEdit`: a command holds it by reference.
public protocol BulkFieldEdit<Root>: AnyObject, Sendable {
  associatedtype Root: Record

  var field: any FieldAccessor<Root> { get }
  var action: EditAction { get }
  /// The numbers of the records it changed, in file order when it was made. Not always
  /// ascending: a record made later gets a higher number wherever it is put, and a saved
  /// file's records keep their numbers in any order.
  var records: [RecordNumber] { get }
  /// Whether `records` is strictly ascending (the usual case), so a number is found in
  /// it by binary search (`RecordNumber.index(of:in:ascending:)`).
  var recordsAscending: Bool { get }
  /// Appends the edit as `Command.encoded()` spells it, in compact JSON.
  func appendEncoded(to out: inout [UInt8])
  /// Applies or reverts it: O(records it changed), one write each.
  func apply(to document: inout Document<Root>)
  func revert(in document: inout Document<Root>)
  /// Whether every record it changed is there with its old value (`FieldEdit`'s rule).
  func isApplicable(to document: Document<Root>) -> Bool
  /// Whether every record it changed is there with its new value.
  func isRevertible(in document: Document<Root>) -> Bool
  /// The old and new value of the `index`th record it changed, as the file holds them
  /// (`nil`: absent).
  func values(at index: Int) -> (old: JSONValue?, new: JSONValue?)
}

/// The new values of a bulk edit: one for every record, or one each (a list edit).
enum BulkValues<Value: Equatable & Sendable>: Sendable {
  case same(Value?)
  case each([Value?])

  @inline(__always)
  subscript(index: Int) -> Value? {
    switch self {
    case .same(let value): value
    case .each(let values): values[index]
    }
  }
}

/// The one generic bulk edit: for each record it changed, a key-path write of the new
/// value (apply) or of the old one (undo), as `PropertyUpdate` does for one record.
final class BulkUpdate<Root: Record, Codec: FieldCodec>: BulkFieldEdit {
  let typedField: KeyPathField<Root, Codec>
  let action: EditAction
  let records: [RecordNumber]
  /// Whether `records` is strictly ascending; found once when made (O(records)).
  let recordsAscending: Bool
  let olds: [Codec.Value?]
  let news: BulkValues<Codec.Value>

  init(
    field: KeyPathField<Root, Codec>, action: EditAction, records: [RecordNumber], olds: [Codec.Value?],
    news: BulkValues<Codec.Value>
  ) {
    typedField = field
    self.action = action
    self.records = records
    recordsAscending = RecordNumber.isAscending(records)
    self.olds = olds
    self.news = news
  }

  var field: any FieldAccessor<Root> { typedField }

  func appendEncoded(to out: inout [UInt8]) {
    typedField.queries.encodeBulk(self, &out)
  }

  func apply(to document: inout Document<Root>) {
    typedField.queries.writeBulk(self, &document, true)
  }

  func revert(in document: inout Document<Root>) {
    typedField.queries.writeBulk(self, &document, false)
  }

  func isApplicable(to document: Document<Root>) -> Bool {
    typedField.queries.checkBulk(self, document, true)
  }

  func isRevertible(in document: Document<Root>) -> Bool {
    typedField.queries.checkBulk(self, document, false)
  }

  func values(at index: Int) -> (old: JSONValue?, new: JSONValue?) {
    (olds[index].map(typedField.codec.encode), news[index].map(typedField.codec.encode))
  }
}

/// `delete where …`: the records it deleted, whole, with their numbers and the positions
/// they had, ascending, so undo puts each back where it was. Applying and reverting it
/// rebuild the document once (O(records in the document)), not once per record.
public final class BulkDeletion<Root: Record>: Sendable {
  let records: [Root]
  /// The deleted records' numbers, in file order (as `BulkFieldEdit.records`, not always
  /// ascending).
  let numbers: [RecordNumber]
  /// Whether `numbers` is strictly ascending; found once when made (O(records)).
  let numbersAscending: Bool
  /// Ascending positions in the document before the delete.
  let positions: [Int]

  init(records: [Root], numbers: [RecordNumber], positions: [Int]) {
    self.records = records
    self.numbers = numbers
    numbersAscending = RecordNumber.isAscending(numbers)
    self.positions = positions
  }
}

extension RecordNumber {
  /// Whether `numbers` is strictly ascending. O(numbers).
  static func isAscending(_ numbers: [RecordNumber]) -> Bool {
    numbers.indices.dropFirst().allSatisfy { numbers[$0 - 1] < numbers[$0] }
  }

  /// The index of `number` in `numbers`: by binary search (O(log n)) when `ascending`
  /// says `numbers` is strictly ascending, else by a scan (O(n)).
  static func index(of number: RecordNumber, in numbers: [RecordNumber], ascending: Bool) -> Int? {
    guard ascending else { return numbers.firstIndex(of: number) }
    var low = 0
    var high = numbers.count
    while low < high {
      let middle = (low + high) / 2
      if numbers[middle] == number { return middle }
      if numbers[middle] < number { low = middle + 1 } else { high = middle }
    }
    return nil
  }
}

/// Numbers in a bulk edit's encoding: the first as it is, each next one as its
/// difference from the one before (small, since the records are in file order). Laid
/// out as `JSONValue.appendCompact` lays out an array (`[3, 1, 4]`), so that the
/// journal's direct encoding is the bytes of `Command.encoded()`.
enum DeltaList {
  static func append(_ values: some Sequence<Int>, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    var previous = 0
    var first = true
    for value in values {
      if !first { out.append(literal: ", ") }
      JSONValue.appendDecimal(value - previous, to: &out)
      previous = value
      first = false
    }
    out.append(UInt8(ascii: "]"))
  }

  static func decode(_ json: JSONValue?) -> [Int]? {
    guard case .array(let items)? = json else { return nil }
    var values: [Int] = []
    values.reserveCapacity(items.count)
    var previous = 0
    for item in items {
      guard case .number(let spelling) = item, let delta = Int(spelling) else { return nil }
      let (value, overflow) = previous.addingReportingOverflow(delta)
      guard !overflow else { return nil }
      values.append(value)
      previous = value
    }
    return values
  }
}
