/// A file of records read as a run-time kind: the kind of a schema, or one inferred from
/// the records themselves in the same read.
///
/// The records are read first with no kind (every member kept, identities `#N`), which
/// needs no field table: that is the one pass over the file's bytes, and, for a JSON or
/// JSON Lines file without a schema, inference's too (each record's members go to it as
/// the reader finds them). Then, from the records in memory: the kind is inferred from a
/// CSV or TSV file's records, the key chosen
/// (`RunTimeKind.chooseKey`), a schema file's rules checked record by record, and each
/// record given its key as identity. Only errors read the bytes again, to say where.
package enum RunTimeFile {
  package struct Loaded: Sendable {
    package var kind: RunTimeKind
    package var document: Document<RunTimeRecord>
    package var warnings: [String]
    /// A CSV or TSV file's table as read (see `RecordFile.Loaded.table`).
    package var table: CSVTable?
  }

  /// How many broken rules a refused file lists.
  static let violationLimit = 20

  /// Reads `bytes` as records of `schema`'s kind, or of a kind inferred from them when
  /// `schema` is `nil`; `name` names an inferred kind (a schema's `title` names its own).
  /// `passed` hears the offset reached after each record, as `RecordFile.decode` says.
  /// With `streaming` false every record is read through a tree, then checked and keyed
  /// after the read: tests and the fuzz targets hold the two ways together.
  package static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout, schema: RecordSchema?, name: String,
    streaming: Bool = true, passing passed: (Int) -> Void = { _ in }
  ) throws(RecordFileError) -> Loaded {
    // A key the schema names is known before the read: a string one is given to each
    // record as it is read.
    let declaredKey = schema.flatMap(RunTimeKind.declaredKey(of:))
    let read = RunTimeKind.$current.withValue(.unbound) {
      Result { () throws(RecordFileError) in
        // A table's cells are text: a schema's fields say what each column's text is.
        // Without a schema the kind is inferred as the records are read.
        try RecordFile<RunTimeRecord>.decodeRecordsAndTable(
          bytes, layout: layout, streaming: streaming,
          readings: layout.isDelimited ? schema.map(RunTimeKind.cellReadings(of:)) : nil,
          inferring: schema == nil, checking: schema?.schema,
          keyedBy: declaredKey.flatMap { $0.isInteger ? nil : $0.name }, passing: passed)
      }
    }
    let loaded = try read.get()
    let records = loaded.records
    let (recordSchema, warnings) =
      schema.map { ($0, []) } ?? inferredSchema(from: loaded.inference ?? walking(records), name: name)
    let key = RunTimeKind.chooseKey(
      schema: recordSchema, ids: records.lazy.map { $0.custom["id"] }, recordCount: records.count)
    let kind = RunTimeKind(name: name, schema: recordSchema, key: key)
    if let schema {
      try check(records, against: schema, key: key, in: bytes, layout: layout, refused: loaded.refused)
    }
    let keyed = try rekeyed(records, by: kind, in: bytes, layout: layout, keyedAlready: loaded.keyed)
    return Loaded(kind: kind, document: keyed, warnings: warnings, table: loaded.table)
  }

  /// The kind of a file that has no records yet (none given, or a missing one):
  /// `schema`'s, or the kind inferred from no records, which declares no field.
  package static func kind(ofNoRecords schema: RecordSchema?, name: String) -> RunTimeKind {
    let recordSchema = schema ?? inferredSchema(from: KindInference(), name: name).schema
    return RunTimeKind(
      name: name, schema: recordSchema,
      key: RunTimeKind.chooseKey(schema: recordSchema, ids: [], recordCount: 0))
  }

  /// The inference of `records`' kind, from their text (a CSV or TSV file's records,
  /// which the read did not infer from).
  private static func walking(_ records: [RunTimeRecord]) -> KindInference {
    var inference = KindInference()
    for record in records { inference.add(record.custom) }
    return inference
  }

  /// The schema `inference` inferred, with a warning when the records held more keys than
  /// inference types.
  private static func inferredSchema(from inference: KindInference, name: String) -> (
    schema: RecordSchema, warnings: [String]
  ) {
    var warnings: [String] = []
    if inference.untypedKeys > 0 {
      warnings.append(
        "the records hold more than \(KindInference.fieldLimit) different keys; the ones past that are custom fields"
      )
    }
    do {
      return (try RecordSchema(reading: inference.schemaDocument(title: name)), warnings)
    } catch {
      // Inference writes only keywords the reader supports; nothing here can fail.
      preconditionFailure("an inferred schema was refused: \(error)")
    }
  }

  /// Refuses records (read from `bytes`) that break `schema`, listing the first
  /// `violationLimit` violations with their places, and counting them all. `refused`: the
  /// records (0-based, in order) whose text the read already found to break it, when the
  /// read checked them (`RecordFile.decodeRecordsAndTable(…checking:…)`); else each
  /// record's text is checked here.
  static func check(
    _ records: [RunTimeRecord], against schema: RecordSchema, key: RecordKey?,
    in bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout, refused: [Int]? = nil
  )
    throws(RecordFileError)
  {
    var found: [(record: Int, violation: SchemaViolation)] = []
    var total = 0
    // The text says whether a record passes; only one that does not is decoded, for the
    // tree checker to say what it breaks.
    let suspects = refused ?? records.indices.filter { !records[$0].custom.meets(schema.schema) }
    for index in suspects {
      let record = records[index]
      let violations = schema.schema.violations(of: .object(record.object))
      guard !violations.isEmpty else { continue }
      total += violations.count
      for violation in violations where found.count < violationLimit { found.append((index, violation)) }
    }
    guard !found.isEmpty else { return }
    let places = positions(of: found.map { ($0.record, $0.violation.pointer) }, in: bytes, layout: layout)
    let listed = zip(found, places).map { entry, place in
      RecordViolation(
        record: entry.record + 1, id: key.flatMap { keyText(records[entry.record], $0) },
        field: entry.violation.pointer.tokens.joined(separator: "."), message: entry.violation.message,
        position: place)
    }
    throw .violations(listed, total: total)
  }

  /// The records with their keys as identities; two with one key are refused.
  /// `keyedAlready`: each record was given its key's value as identity as it was read.
  private static func rekeyed(
    _ records: [RunTimeRecord], by kind: RunTimeKind, in bytes: UnsafeBufferPointer<UInt8>,
    layout: RecordLayout, keyedAlready: Bool
  )
    throws(RecordFileError) -> Document<RunTimeRecord>
  {
    var keyed = records
    if let key = kind.key, !keyedAlready {
      for index in keyed.indices {
        let custom = keyed[index].custom
        do {
          keyed[index] = try kind.table.runTimeRecord(custom, position: index, identity: nil)
        } catch {
          var id: String?
          if case .string(let text)? = custom[key.name] { id = text }
          throw .record(
            index + 1, id: id, error, at: position(of: .root, inRecord: index, in: bytes, layout: layout))
        }
      }
    }
    do {
      return try Document(records: keyed)
    } catch {
      guard case .duplicateID(let id, let first, let second) = error else {
        preconditionFailure("records read from a file are numbered in order: \(error)")
      }
      throw .duplicateID(
        id, first: first, second: second,
        at: position(of: .root, inRecord: second - 1, in: bytes, layout: layout))
    }
  }

  private static func keyText(_ record: RunTimeRecord, _ key: RecordKey) -> String? {
    switch record.custom[key.name] {
    case .string(let text)?: text
    case .number(let spelling)?: spelling
    default: nil
    }
  }

  /// Where the value at `pointer` in record `index` (0-based) starts; where the record
  /// starts when the pointer leads nowhere (a missing required member).
  static func position(
    of pointer: JSONPointer, inRecord index: Int, in bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout
  )
    -> JSONPosition
  {
    positions(of: [(index, pointer)], in: bytes, layout: layout)[0]
  }

  /// `position(of:inRecord:in:)` for each of `places`, which are in record order, found
  /// in one read of the array (a refused file lists up to 20 places).
  static func positions(
    of places: [(record: Int, pointer: JSONPointer)], in bytes: UnsafeBufferPointer<UInt8>,
    layout: RecordLayout
  )
    -> [JSONPosition]
  {
    if layout.isDelimited {
      // A row's cell: its column is the pointer's first token (a dotted column's name is
      // the whole path).
      let cells = places.map { place in
        (
          record: place.record + 1,
          field: place.pointer.tokens.isEmpty ? nil : place.pointer.tokens.joined(separator: ".")
        )
      }
      return DelimitedFile<RunTimeRecord>.positions(of: cells, in: bytes, layout: layout)
    }
    var reader = JSONReader(unsafeBytes: bytes)
    var offsets = [Int](repeating: 0, count: places.count)
    var next = 0
    var count = 0
    try? reader.readRecords(layout) { element in
      defer { count += 1 }
      guard next < places.count, places[next].record == count else { return }
      let mark = element.mark
      while next < places.count, places[next].record == count {
        element.rewind(to: mark)
        var found: Int? = element.tokenStart
        var tokens = places[next].pointer.tokens[...]
        try descend(&element, &tokens, &found)
        offsets[next] = found ?? 0
        next += 1
      }
      // Read the record whole, whatever the descents left, so the array reads on.
      element.rewind(to: mark)
      try element.skipValue()
    }
    return offsets.map { reader.position(at: $0) }
  }

  /// Follows `tokens` into the value at the reader, setting `found` to each step's start.
  private static func descend(
    _ reader: inout JSONReader, _ tokens: inout ArraySlice<String>, _ found: inout Int?
  )
    throws
  {
    guard let token = tokens.popFirst() else { return }
    switch try reader.peek() {
    case .object:
      try reader.readObject { member, key in
        guard key == token else { return }
        member.skipWhitespace()
        found = member.index
        try descend(&member, &tokens, &found)
      }
    case .array:
      guard let wanted = Int(token) else { return }
      var index = 0
      try reader.readArray { element in
        defer { index += 1 }
        guard index == wanted else { return }
        found = element.tokenStart
        try descend(&element, &tokens, &found)
      }
    default:
      return
    }
  }
}

/// One broken rule of a refused file: `FILE:LINE:COLUMN: error: record N (id …): field
/// '…': …`.
public struct RecordViolation: Equatable, Sendable, CustomStringConvertible {
  /// 1-based, as `@N` counts.
  var record: Int
  var id: String?
  /// The member's path, dotted (`publisher.city`, `authors.2`); empty for the record itself.
  var field: String
  var message: String
  public var position: JSONPosition

  public var description: String {
    let which = id.map { "record \(record) (id \"\($0)\")" } ?? "record \(record)"
    return field.isEmpty ? "\(which): \(message)" : "\(which): field '\(field)': \(message)"
  }
}
