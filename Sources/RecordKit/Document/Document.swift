/// The records of one file, in file order, with an id index for O(1) lookup.
///
/// Only commands change a document (through `write`, `insert`, `remove`), so
/// every change is in the history.
public struct Document<Root: Record>: Sendable {
  public private(set) var records: [Root]
  private var index: IDIndex<Root>

  public init() {
    records = []
    index = IDIndex()
  }

  /// A document of `records`; two records with one id are refused.
  public init(records: [Root]) throws(DocumentError) {
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

  /// The position of the record with this exact id.
  public func position(ofID id: String) -> Int? {
    records.withUnsafeBufferPointer { index.position(of: id, in: $0) }
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
    let outcome = records.withUnsafeMutableBufferPointer { buffer -> Swift.Result<Result, Failure>? in
      guard let base = buffer.baseAddress, buffer.indices.contains(position) else { return nil }
      return Swift.Result { () throws(Failure) in try body(base + position) }
    }
    return try outcome?.get()
  }

  /// Runs `body` on the record with `id` in place (nothing when there is none).
  mutating func withMutableRecord(id: String, _ body: (UnsafeMutablePointer<Root>) -> Void) {
    guard let position = position(ofID: id) else { return }
    withMutableRecord(at: position, body)
  }

  /// Inserts `record`, whose id must be new (commands check), at `position`.
  mutating func insert(_ record: Root, at position: Int) {
    records.insert(record, at: position)
    // The records after it moved up one; then the new one goes in.
    if position < records.count - 1 { index.shiftPositions(from: position, by: 1) }
    _ = records.withUnsafeBufferPointer { index.insert(position: position, in: $0) }
  }

  mutating func remove(at position: Int) {
    records.withUnsafeBufferPointer { index.remove(position: position, in: $0) }
    records.remove(at: position)
    index.shiftPositions(from: position + 1, by: -1)
  }
}

/// Why a document cannot be made.
public enum DocumentError: Error, Equatable, Sendable {
  /// Positions are 1-based, as `@N` and messages count.
  case duplicateID(String, first: Int, second: Int)
}

extension DocumentError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .duplicateID(let id, let first, let second):
      "records \(first) and \(second) have the same id \"\(id)\""
    }
  }
}
