/// The records of one file, in file order, with an id index for O(1) lookup, and each
/// record's stable number.
///
/// **Record numbers.** Every record has a `RecordNumber`: the records read from a file
/// are numbered 0, 1, 2… in file order, and a record made later gets `nextNumber`. A
/// number stays with its record for the document's life, through undo and redo (a
/// delete keeps it to put the record back), and is never given to another record. The
/// commands, the history and the journal name records by number: an edit finds its
/// record's position with one array read, whatever the kind's key (or if it has none),
/// where an id had to be hashed and compared. A journal replayed over the file it was
/// made for numbers the file's records as the session did.
///
/// Only commands change a document (through `write`, `insert`, `remove`), so
/// every change is in the history.
public struct Document<Root: Record>: Sendable {
  public private(set) var records: [Root]
  private var index: IDIndex<Root>
  /// The number of the record at each position, and the position of each number.
  private(set) var numbering: Numbering
  /// The number the next new record gets: one more than any given so far.
  public private(set) var nextNumber: RecordNumber
  /// Which records may differ from what the document held when `lineage` began or
  /// `markUnchanged()` was last called: written, inserted or removed since.
  private(set) var changes: ChangeMarks
  /// Made anew by every initializer but a renumbering, kept by every edit: a file image
  /// made of this document (`FileImage`) reads `changes` only for the same lineage.
  public private(set) var lineage: UInt64

  public init() {
    records = []
    index = IDIndex()
    numbering = Numbering(identity: 0)
    nextNumber = RecordNumber(0)
    changes = ChangeMarks()
    lineage = UInt64.random(in: 1...UInt64.max)
  }

  /// A document of `records`, numbered from 0 in order (or with `numbers`, one per
  /// record, all different, as a saved file's numbers are read back); two records with one id
  /// are refused.
  public init(records: [Root], numbers: [RecordNumber]? = nil) throws(DocumentError) {
    if let numbers {
      numbering = try Numbering(numbers)
    } else {
      numbering = Numbering(identity: records.count)
    }
    precondition(self.numbering.count == records.count, "one number per record")
    nextNumber = self.numbering.nextFree
    changes = ChangeMarks()
    lineage = UInt64.random(in: 1...UInt64.max)
    self.records = records
    var index = IDIndex<Root>(capacity: records.count)
    let duplicate = records.withUnsafeBufferPointer { records -> (first: Int, second: Int)? in
      for position in records.indices {
        if let first = index.insert(position: position, in: records) { return (first, position) }
      }
      return nil
    }
    if let duplicate {
      throw .duplicateID(
        self.records[duplicate.second].id, first: duplicate.first + 1, second: duplicate.second + 1)
    }
    self.index = index
  }

  public var count: Int { records.count }

  /// The position of the record numbered `number`, if it is in the document: O(1).
  @inline(__always)
  func position(of number: RecordNumber) -> Int? { numbering.position(of: number) }

  /// The number of the record at `position`, which must exist.
  public func number(at position: Int) -> RecordNumber { numbering.number(at: position) }

  /// The records' numbers in order. O(records): an array is made for a document numbered
  /// as read.
  var numbers: [RecordNumber] { numbering.all }

  /// The record numbered `number`, if it is in the document.
  func record(numbered number: RecordNumber) -> Root? {
    position(of: number).map { records[$0] }
  }

  /// The position of the record with this exact id.
  public func position(ofID id: String) -> Int? {
    records.withUnsafeBufferPointer { index.position(of: id, in: $0) }
  }

  /// The position of the record whose id is the ASCII `bytes`, as `position(ofID:)` finds
  /// it, without making a `String`; `nil` when the bytes are not ASCII (ask
  /// `position(ofID:)`) or no record has the id.
  public func position(ofASCIIID bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    records.withUnsafeBufferPointer { index.position(ofASCII: bytes, in: $0) }
  }

  /// The lookup of the record whose id is the ASCII `bytes`, begun before its turn:
  /// `nil` when the bytes are not ASCII. It holds the id's hash, which no edit changes,
  /// so it may be taken while earlier commands have still to run; `warmSlot(for:)` and
  /// then `warmRecord(for:)`, called some time apart before
  /// `position(ofASCIIID:lookahead:)`, let the two cache misses of that lookup (its slot,
  /// then its record) and the record's change mark overlap the commands before it. Costs
  /// the hash of the bytes.
  public static func lookahead(ofASCIIID bytes: UnsafeBufferPointer<UInt8>) -> IDLookahead? {
    IDHash.isASCII(bytes) ? IDLookahead(hash: IDHash.hash(bytes: bytes)) : nil
  }

  /// Asks the processor for the index slot where `lookahead`'s lookup starts. Reads
  /// nothing; O(1).
  public func warmSlot(for lookahead: IDLookahead) {
    index.warmSlot(hash: lookahead.hash)
  }

  /// Asks the processor for the record `lookahead`'s lookup most likely finds and the
  /// words that mark it changed: reads the index's slots (best after `warmSlot(for:)`
  /// had time to bring them), never a record. O(1) but for the slots probed.
  public func warmRecord(for lookahead: IDLookahead) {
    withLikelyRecord(for: lookahead) { record, position in
      CacheHint.read(record)
      changes.warm(numbering.number(at: position))
    }
  }

  /// Asks the processor for the memory that the value of declared field `field` (its
  /// index in the kind's table) keeps outside the record `lookahead`'s lookup most likely
  /// finds (a text's bytes, a run-time record's members: `FieldAccessor.warmValue(at:)`),
  /// which a `set` of that field on it reads first. Reads the index's slots and the record: best after
  /// `warmRecord(for:)` had time to bring it.
  public func warmField(_ field: Int, for lookahead: IDLookahead) {
    let fields = Root.fields.fields
    guard field < fields.count else { return }
    withLikelyRecord(for: lookahead) { record, _ in fields[field].warmValue(at: record) }
  }

  /// The position of the record `lookahead`'s lookup most likely finds, read from the
  /// index's slots alone (`IDIndex.likelyPosition(hash:)`): a guess, not an answer.
  func likelyPosition(for lookahead: IDLookahead) -> Int? {
    index.likelyPosition(hash: lookahead.hash)
  }

  /// Calls `body` with the record `lookahead`'s lookup most likely finds, in place, and
  /// its position; nothing when the index has no candidate. What the warming shares.
  @inline(__always)
  private func withLikelyRecord(for lookahead: IDLookahead, _ body: (UnsafePointer<Root>, Int) -> Void) {
    guard let position = likelyPosition(for: lookahead) else { return }
    records.withUnsafeBufferPointer { records in
      guard let base = records.baseAddress, records.indices.contains(position) else { return }
      body(base + position, position)
    }
  }

  /// `position(ofASCIIID:)` for the bytes `lookahead` was taken of (the caller's promise),
  /// without hashing them again.
  public func position(ofASCIIID bytes: UnsafeBufferPointer<UInt8>, lookahead: IDLookahead) -> Int? {
    records.withUnsafeBufferPointer { index.position(ofASCII: bytes, hash: lookahead.hash, in: $0) }
  }

  public func record(withID id: String) -> Root? {
    position(ofID: id).map { records[$0] }
  }

  public func contains(id: String) -> Bool { position(ofID: id) != nil }

  /// The id of the record at `position`, read in place: in generic code
  /// `records[position].id` copies the whole record first (a retain per field).
  public func id(at position: Int) -> String {
    withRecord(at: position) { $0.pointee.id } ?? ""
  }

  /// Runs `body` on the record at `position` (`nil` when there is none) through a
  /// pointer's `pointee` (an addressor), so generic code reads the record in place
  /// instead of copying it.
  func withRecord<Result, Failure: Error>(
    at position: Int, _ body: (UnsafePointer<Root>) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    let outcome = records.withUnsafeBufferPointer { buffer -> Swift.Result<Result, Failure>? in
      guard let base = buffer.baseAddress, buffer.indices.contains(position) else { return nil }
      return Swift.Result { () throws(Failure) in try body(base + position) }
    }
    return try outcome?.get()
  }

  /// The custom keys of the record with `id` (empty when there is none), read in place.
  public func customKeys(ofRecordWithID id: String) -> [String] {
    guard let position = position(ofID: id) else { return [] }
    return withRecord(at: position) {
      $0.pointee.custom.isEmpty ? [] : Root.fields.customKeys(of: $0.pointee)
    } ?? []
  }

  /// Runs `body` on the record at `position` in place (`nil` when there is none).
  mutating func withMutableRecord<Result, Failure: Error>(
    at position: Int, _ body: (UnsafeMutablePointer<Root>) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    if position >= 0 && position < numbering.count { changes.mark(numbering.number(at: position)) }
    return try inPlace(at: position, body)?.get()
  }

  /// Runs `body` on the record at `position` in place, marking nothing; `nil` when there
  /// is none.
  private mutating func inPlace<Result, Failure: Error>(
    at position: Int, _ body: (UnsafeMutablePointer<Root>) throws(Failure) -> Result
  ) -> Swift.Result<Result, Failure>? {
    records.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress, buffer.indices.contains(position) else { return nil }
      return Swift.Result { () throws(Failure) in try body(base + position) }
    }
  }

  /// `withMutableRecord(at:_:)` for a one-field change: `body` answers what it gives and
  /// the index in the kind's table of the declared field it wrote (`nil`: another field,
  /// or none), and only that field of the record is marked as changed (`ChangeMarks`);
  /// the whole record when `body` throws.
  mutating func withMutableRecord<Result, Failure: Error>(
    at position: Int,
    changingField body: (UnsafeMutablePointer<Root>) throws(Failure) -> (Result, field: Int?)
  ) throws(Failure) -> Result? {
    guard position >= 0 && position < numbering.count else { return nil }
    let number = numbering.number(at: position)
    switch inPlace(at: position, body) {
    case .success(let (result, field))?:
      if let field { changes.mark(number, field: field) } else { changes.mark(number) }
      return result
    case .failure(let error)?:
      changes.mark(number)
      throw error
    case nil:
      return nil
    }
  }

  /// Runs `body` on the record numbered `number` in place (nothing when there is none).
  @inline(__always)
  mutating func withMutableRecord(numbered number: RecordNumber, _ body: (UnsafeMutablePointer<Root>) -> Void)
  {
    guard let position = position(of: number) else { return }
    withMutableRecord(at: position, body)
  }

  /// Runs `body` over the records in place, with a lookup of a record number's position
  /// (O(1)): the bulk edits' one loop over many records. `body` must not change a record's
  /// id (no field edit does: keys are read-only), and the caller marks the records it
  /// changed (`markChanged(at:)`, `markChanged(numbers:)`).
  mutating func withRecordBuffer<Result>(
    _ body: (UnsafeMutableBufferPointer<Root>, (RecordNumber) -> Int?) -> Result
  ) -> Result {
    let lookup = numbering.lookup
    return records.withUnsafeMutableBufferPointer { buffer in body(buffer, lookup) }
  }

  /// Marks the records at `positions` as changed (see `changes`).
  mutating func markChanged(at positions: some Sequence<Int>) {
    for position in positions where position >= 0 && position < numbering.count {
      changes.mark(numbering.number(at: position))
    }
  }

  /// Marks the records numbered `numbers` as changed (see `changes`).
  mutating func markChanged(numbers marked: some Sequence<RecordNumber>) {
    for number in marked { changes.mark(number) }
  }

  /// Forgets every change mark: the document now holds what its file image holds.
  mutating func markUnchanged() {
    changes = ChangeMarks()
  }

  /// Whether the record numbered `number` may differ from what it was when this lineage
  /// began or `markUnchanged()` was last called. O(1).
  func mayHaveChanged(_ number: RecordNumber) -> Bool { changes.contains(number) }

  /// Which declared fields of the record numbered `number` may have changed, as
  /// `ChangeMarks.fields(of:)` says. O(1).
  func fieldsThatMayHaveChanged(_ number: RecordNumber) -> UInt64 { changes.fields(of: number) }

  /// Removes the records at `positions` (ascending, each in range) and returns them with
  /// their numbers: one pass over the document and one rebuild of its id index, where
  /// removing them one by one would shift the others once per record.
  mutating func removeAll(at positions: [Int]) -> (records: [Root], numbers: [RecordNumber]) {
    markChanged(at: positions)
    var removed: [Root] = []
    var removedNumbers: [RecordNumber] = []
    removed.reserveCapacity(positions.count)
    removedNumbers.reserveCapacity(positions.count)
    var keptRecords: [Root] = []
    var keptNumbers: [RecordNumber] = []
    keptRecords.reserveCapacity(records.count - positions.count)
    keptNumbers.reserveCapacity(records.count - positions.count)
    var next = 0
    for (position, record) in records.enumerated() {
      if next < positions.count, positions[next] == position {
        removed.append(record)
        removedNumbers.append(numbering.number(at: position))
        next += 1
      } else {
        keptRecords.append(record)
        keptNumbers.append(numbering.number(at: position))
      }
    }
    rebuild(records: keptRecords, numbers: keptNumbers)
    return (removed, removedNumbers)
  }

  /// Puts back records `removeAll(at:)` took: each at its old position (ascending), with
  /// its number. One pass and one rebuild, as there.
  mutating func insertAll(_ inserted: [Root], numbered insertedNumbers: [RecordNumber], at positions: [Int]) {
    markChanged(numbers: insertedNumbers)
    var mergedRecords: [Root] = []
    var mergedNumbers: [RecordNumber] = []
    let total = records.count + inserted.count
    mergedRecords.reserveCapacity(total)
    mergedNumbers.reserveCapacity(total)
    var next = 0
    var kept = 0
    for position in 0..<total {
      if next < positions.count, positions[next] == position {
        mergedRecords.append(inserted[next])
        mergedNumbers.append(insertedNumbers[next])
        next += 1
      } else if kept < records.count {
        mergedRecords.append(records[kept])
        mergedNumbers.append(numbering.number(at: kept))
        kept += 1
      }
    }
    rebuild(records: mergedRecords, numbers: mergedNumbers)
  }

  /// Replaces the records and numbers and rebuilds the id index and the positions by
  /// number from them: O(records).
  private mutating func rebuild(records newRecords: [Root], numbers newNumbers: [RecordNumber]) {
    records = newRecords
    numbering.reset(to: newNumbers)
    if numbering.nextFree > nextNumber { nextNumber = numbering.nextFree }
    var index = IDIndex<Root>(capacity: newRecords.count)
    records.withUnsafeBufferPointer { buffer in
      for position in buffer.indices { _ = index.insert(position: position, in: buffer) }
    }
    self.index = index
  }

  /// Sets the next number back to `number`, after the records made since were taken out
  /// again (a preview's trial): no record may hold a number at or past it. O(1).
  mutating func rewindNextNumber(to number: RecordNumber) {
    precondition(number <= nextNumber, "the next number only goes back")
    nextNumber = number
  }

  /// Inserts `record`, whose id and number must be new (commands check), at `position`.
  mutating func insert(_ record: Root, numbered number: RecordNumber, at position: Int) {
    changes.mark(number)
    records.insert(record, at: position)
    numbering.insert(number, at: position)
    // The records after it moved up one; then the new one goes in.
    if position < records.count - 1 { index.shiftPositions(from: position, by: 1) }
    _ = records.withUnsafeBufferPointer { index.insert(position: position, in: $0) }
    if number.value >= nextNumber.value { nextNumber = RecordNumber(number.value &+ 1) }
  }

  mutating func remove(at position: Int) {
    markChanged(at: [position])
    records.withUnsafeBufferPointer { index.remove(position: position, in: $0) }
    records.remove(at: position)
    _ = numbering.remove(at: position)
    index.shiftPositions(from: position + 1, by: -1)
  }
}

extension Document {
  /// The records' numbers in order, as runs of consecutive numbers; `nil` when they are
  /// 0, 1, 2… as reading the file gives them. A journal that starts again after a save
  /// keeps them, so that a replay over the saved file numbers its records as the session
  /// did. Costs O(records).
  public var numberRuns: [NumberRun]? {
    if numbering.isIdentity { return nil }
    var runs: [NumberRun] = []
    for number in numbering.all {
      if let last = runs.last, UInt64(last.first.value) + UInt64(last.count) == UInt64(number.value) {
        runs[runs.count - 1].count += 1
      } else {
        runs.append(NumberRun(first: number, count: 1))
      }
    }
    if runs.isEmpty || (runs.count == 1 && runs[0].first.value == 0) { return nil }
    return runs
  }

  /// `document` with its records numbered as `runs` say (what `numberRuns` gave); the
  /// runs must cover exactly its records.
  public init(renumbering document: Document, by runs: [NumberRun]) throws(DocumentError) {
    var numbers: [RecordNumber] = []
    for run in runs {
      guard run.count >= 0, UInt64(run.first.value) + UInt64(run.count) <= UInt64(UInt32.max) else {
        throw .numberingMismatch(records: document.count, numbers: -1)
      }
      numbers += (0..<run.count).map { RecordNumber(run.first.value + UInt32($0)) }
      guard numbers.count <= document.count else { break }
    }
    guard numbers.count == document.count else {
      throw .numberingMismatch(records: document.count, numbers: numbers.count)
    }
    try self.init(records: document.records, numbers: numbers)
    // The same records: a file image of `document` still describes them.
    lineage = document.lineage
    for position in 0..<document.count where document.changes.contains(document.number(at: position)) {
      changes.mark(self.number(at: position))
    }
  }
}

/// Consecutive record numbers: `first`, `first + 1`, … `count` of them.
public struct NumberRun: Equatable, Sendable {
  public var first: RecordNumber
  public var count: Int

  public init(first: RecordNumber, count: Int) {
    self.first = first
    self.count = count
  }
}

/// A record's stable number in its document (see `Document`).
public struct RecordNumber: Hashable, Comparable, Sendable, CustomStringConvertible {
  let value: UInt32

  public init(_ value: UInt32) {
    self.value = value
  }

  public static func < (lhs: RecordNumber, rhs: RecordNumber) -> Bool { lhs.value < rhs.value }
  public var description: String { String(value) }
}

/// Why a document cannot be made.
public enum DocumentError: Error, Equatable, Sendable {
  /// Positions are 1-based, as `@N` and messages count.
  case duplicateID(String, first: Int, second: Int)
  /// Two records given one number (numbers read back from a damaged log).
  case duplicateNumber(RecordNumber)
  /// A journal's numbering does not fit the file's records.
  case numberingMismatch(records: Int, numbers: Int)
}

extension DocumentError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .duplicateID(let id, let first, let second):
      "records \(first) and \(second) have the same id \"\(id)\""
    case .duplicateNumber(let number):
      "two records have the number \(number)"
    case .numberingMismatch(let records, let numbers):
      numbers < 0
        ? "the record numbers are out of range"
        : "the record numbers cover \(numbers) records, the file has \(records)"
    }
  }
}

/// One bit per record number: which records a document marked as changed. Grows as
/// numbers are marked; a number never marked reads as unchanged.
///
/// A record changed only by one-field `set`s also says which of the kind's first 64
/// declared fields they wrote (`mark(_:field:)`), so that a save compares only those
/// members with the file's (`MemberPatch`): after a million edits of one or two fields of
/// each record, the others were most of the save. Any other change marks the whole
/// record, and a whole mark is never narrowed. The field words are kept from the first
/// such mark on, one per number up to the highest marked (8 bytes a record).
struct ChangeMarks: Sendable {
  private var words: [UInt64] = []
  /// Per number, the fields marked, `~0` for the whole record; numbers past its end that
  /// `words` marks are whole.
  private var fieldWords: [UInt64] = []

  /// Marks the whole record.
  mutating func mark(_ number: RecordNumber) {
    setBit(of: number)
    let slot = Int(number.value)
    if slot < fieldWords.count { fieldWords[slot] = ~0 }
  }

  /// Sets the record's bit in `words`.
  private mutating func setBit(of number: RecordNumber) {
    let word = Int(number.value >> 6)
    if word >= words.count { words += repeatElement(0, count: word + 1 - words.count) }
    words[word] |= 1 << UInt64(number.value & 63)
  }

  /// Marks declared field `field` (its index in the kind's table) of the record: the
  /// whole record when `field` is past 63.
  mutating func mark(_ number: RecordNumber, field: Int) {
    guard field < 64 else { return mark(number) }
    let slot = Int(number.value)
    if slot >= fieldWords.count {
      // A record marked before the words reached it was marked whole.
      if contains(number) { return }
      let start = fieldWords.count
      fieldWords.reserveCapacity(max(slot + 1, fieldWords.count * 2))
      for other in start...slot {
        fieldWords.append(contains(RecordNumber(UInt32(other))) ? ~0 : 0)
      }
    }
    setBit(of: number)
    fieldWords[slot] |= 1 << UInt64(field)
  }

  /// Asks the processor for the words that `mark(_:field:)` of `number` writes. Reads
  /// nothing; O(1).
  func warm(_ number: RecordNumber) {
    let slot = Int(number.value)
    words.withUnsafeBufferPointer { words in
      guard let base = words.baseAddress, slot >> 6 < words.count else { return }
      CacheHint.read(base + (slot >> 6))
    }
    fieldWords.withUnsafeBufferPointer { fieldWords in
      guard let base = fieldWords.baseAddress, slot < fieldWords.count else { return }
      CacheHint.read(base + slot)
    }
  }

  func contains(_ number: RecordNumber) -> Bool {
    let word = Int(number.value >> 6)
    return word < words.count && words[word] & (1 << UInt64(number.value & 63)) != 0
  }

  /// Which declared fields of the record may have changed, a bit per field index below
  /// 64 (any field from 64 on may have when the record is marked): 0 for a record not
  /// marked, `~0` for one marked whole.
  func fields(of number: RecordNumber) -> UInt64 {
    guard contains(number) else { return 0 }
    let slot = Int(number.value)
    return slot < fieldWords.count ? fieldWords[slot] : ~0
  }
}
