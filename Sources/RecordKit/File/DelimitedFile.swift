/// Records as the rows of a CSV or TSV file (`RecordLayout.csv`, `.tsv`): the header names
/// the fields, each row is a record, each cell a field's value.
///
/// - Reading: a cell's text becomes the value its field's codec says (`CellReading`: a
///   kind's string field keeps `02134`, its integer field reads `7`); a column no field of
///   the kind declares (a custom field, or every column of a kind being inferred) reads as
///   its cells are spelled (`CSVColumnType`). An unquoted empty cell is an absent value, a
///   quoted `""` the empty string. A dotted column (`address.city`) is the declared field
///   of that name.
/// - Writing: a value is written as its text (`CSVWriter.Cell`); a list or an object does
///   not fit a cell (`firstUnfit` finds one, so that a save can refuse it first).
///
/// A read costs a `String` and a `JSONValue` per cell that holds a value, and, for a kind
/// that keeps its records' members as they are (run-time kinds) or declares nested
/// objects, a `JSONObject` per row decoded by the kind's table.
package enum DelimitedFile<Root: Record> {
  /// The records of `table`, read from `bytes`, in order. `readings`: how a column reads,
  /// where the caller knows better than `Root.fields` (a schema's kind, read before it is
  /// bound); `passed` hears each row's end. O(bytes), plus what a row costs (above).
  static func decodeRecords(
    from table: CSVTable, bytes: UnsafeBufferPointer<UInt8>, readings: [String: CellReading]? = nil,
    passing passed: (Int) -> Void
  ) throws(RecordFileError) -> [Root] {
    let fields = Root.fields
    let columns = table.header.enumerated().map { column, name in
      let reading = readings?[name] ?? fields.field(named: name)?.cellReading ?? .inferred
      let type = reading == .inferred ? CSVColumnType(ofColumn: column, in: table, bytes: bytes) : .string
      return (name: name, reading: reading, type: type)
    }
    // A kind that declares its fields (and no nested objects) gets each cell's value put
    // in its field by the field's index, found once per column; any other kind decodes
    // each row as the object it stands for.
    let direct = !fields.keepsAllMembers && !fields.hasNestedObjects
    let places = table.header.map { name in name == "id" ? -1 : fields.index(ofField: name) ?? -2 }
    let declared = fields.fields
    var records: [Root] = []
    records.reserveCapacity(table.rowCount)
    var members: [JSONObject.Member] = []
    members.reserveCapacity(columns.count)
    var custom: [JSONObject.Member] = []
    // A run-time kind's members are written as their canonical text by one writer kept
    // for the whole table (`CustomFields`), not one per row; every text goes to shared
    // blocks, as a JSON file's do.
    var builder = JSONWriter(compact: true)
    var texts = TextArena()
    for row in 0..<table.rowCount {
      members.removeAll(keepingCapacity: true)
      for (column, spec) in columns.enumerated() {
        let cell = table.cell(row: row, column: column)
        guard !cell.isAbsent else { continue }
        let text = table.text(of: cell, in: bytes)
        members.append(
          JSONObject.Member(key: spec.name, value: spec.reading.value(ofText: text, column: spec.type)))
      }
      do throws(RecordDecodingError) {
        if direct {
          records.append(
            try decodeDeclared(
              members, declared: declared, places: places, header: table.header, custom: &custom,
              builder: &builder, texts: &texts))
        } else if fields.keepsAllMembers {
          records.append(
            try fields.runTimeRecord(
              CustomFields(members, using: &builder, in: &texts), position: row, identity: nil))
        } else {
          records.append(try fields.decode(JSONObject(members), position: row))
        }
      } catch {
        var id: String?
        if case .string(let text)? = members.first(where: { $0.key == "id" })?.value { id = text }
        throw .record(row + 1, id: id, error, at: position(ofRow: row, in: table, bytes: bytes))
      }
      passed(table.rowSpan(row).end)
    }
    return records
  }

  /// A record of a kind that declares its fields from a row's `members` (its cells that
  /// hold a value, in column order): what `FieldTable.decode` makes of the object they
  /// stand for, without looking each key up. `declared`: the kind's fields
  /// (`Root.fields.fields`, taken once for the table, not at every row); `places`: each
  /// column's field index, `-1` for `id`, `-2` for a key the kind does not declare.
  private static func decodeDeclared(
    _ members: [JSONObject.Member], declared: [any FieldAccessor<Root>], places: [Int], header: [String],
    custom: inout [JSONObject.Member], builder: inout JSONWriter, texts: inout TextArena
  ) throws(RecordDecodingError) -> Root {
    custom.removeAll(keepingCapacity: true)
    guard let idMember = members.first(where: { $0.key == "id" }) else { throw .missingID }
    guard case .string(let id) = idMember.value, !id.isEmpty else {
      throw .badID(FieldError.found(idMember.value))
    }
    var record = Root(id: id)
    var column = 0
    try declared.withUnsafeBufferPointer { (declared) throws(RecordDecodingError) in
      for member in members {
        // The members skip absent cells: the column is the next whose name is the key.
        while header[column] != member.key { column += 1 }
        let place = places[column]
        if place >= 0 {
          do throws(FieldError) {
            try declared[place].decode(member.value, into: &record, texts: &texts)
          } catch {
            throw .field(error)
          }
        } else if place == -2 {
          custom.append(member)
        }
      }
    }
    if !custom.isEmpty { record.custom = CustomFields(custom, using: &builder, in: &texts) }
    return record
  }

  /// The table in `bytes`, a file of `layout`; or where it is not one.
  static func read(_ bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout) throws(RecordFileError)
    -> CSVTable
  {
    do {
      return try CSVReader.read(bytes, tabSeparated: layout == .tsv)
    } catch {
      throw .table(error)
    }
  }

  /// Where row `row` (0-based, below the header) starts, or column `column` of it.
  /// O(bytes before it): for errors.
  static func position(
    ofRow row: Int, column: Int? = nil, in table: CSVTable, bytes: UnsafeBufferPointer<UInt8>
  )
    -> JSONPosition
  {
    let offset = column.map { table.cell(row: row, column: $0).range.lowerBound } ?? table.rowSpan(row).start
    return JSONPosition(line: 1, column: 1, offset: 0).advanced(to: offset, in: bytes)
  }

  /// Where each record of `places` (1-based) starts in `bytes`, a file of `layout` that
  /// read, or its field `field` when a column has that name: the table read once, the
  /// places counted onwards in the file's order. O(bytes): for errors.
  static func positions(
    of places: [(record: Int, field: String?)], in bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout
  ) -> [JSONPosition] {
    let start = JSONPosition(line: 1, column: 1, offset: 0)
    guard let table = try? read(bytes, layout: layout) else { return places.map { _ in start } }
    let offsets = places.map { place -> Int in
      guard place.record >= 1, place.record <= table.rowCount else { return 0 }
      let row = place.record - 1
      guard let column = place.field.flatMap(table.header.firstIndex(of:)) else {
        return table.rowSpan(row).start
      }
      return table.cell(row: row, column: column).range.lowerBound
    }
    var positions = [JSONPosition](repeating: start, count: places.count)
    var reached = start
    for index in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
      reached = reached.advanced(to: offsets[index], in: bytes)
      positions[index] = reached
    }
    return positions
  }

  // MARK: Writing

  /// The columns a file of `records` has: the kind's declared fields that some record
  /// holds, in the table's order, then the custom keys in the order first met; with no
  /// records, every declared field (a new file's header names the kind's fields). O(records
  /// × fields).
  static func columns(of records: UnsafeBufferPointer<Root>) -> [String] {
    let table = Root.fields
    var names: [String] = []
    if records.isEmpty {
      names = table.fields.map(\.name)
    } else {
      for field in table.fields where records.contains(where: { field.json(in: $0) != nil }) {
        names.append(field.name)
      }
    }
    var seen = Set(names)
    for record in records where !record.custom.isEmpty {
      for key in table.customKeys(of: record) where seen.insert(key).inserted { names.append(key) }
    }
    return names
  }

  /// The value of column `name` in `record`: a declared field's (dotted ones included), or
  /// a custom key's.
  static func value(_ name: String, in record: Root) -> JSONValue? {
    if let field = Root.fields.field(named: name) { return field.json(in: record) }
    return record.custom[name]
  }

  /// The cell that holds `value`; a list or an object, which no cell holds, as its compact
  /// JSON (a save refuses such a record first: `firstUnfit`).
  static func cell(_ value: JSONValue?, keepingQuotes: Bool = false) -> CSVWriter.Cell {
    guard let value else { return .absent }
    return CSVWriter.Cell(value, keepingQuotes: keepingQuotes)
      ?? .text(value.compactText, keepingQuotes: keepingQuotes)
  }

  /// The first record (its id), column and value that is a list or an object, which a cell
  /// cannot hold; `nil` when every value fits. O(records × columns).
  package static func firstUnfit(in records: [Root]) -> (id: String, field: String, value: JSONValue)? {
    records.withUnsafeBufferPointer { buffer in
      let names = columns(of: buffer)
      for record in buffer {
        for name in names {
          switch value(name, in: record) {
          case let unfit? where unfit.kind == .array || unfit.kind == .object: return (record.id, name, unfit)
          default: continue
          }
        }
      }
      return nil
    }
  }

  /// The file for `records` in recsh's own dialect of `layout` (commas or tabs, LF, a final
  /// line break), handed to `sink` in chunks of about `chunkSize` bytes.
  static func encode<Failure: Error>(
    _ records: [Root], layout: RecordLayout, chunkSize: Int,
    into sink: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) {
    let dialect = layout == .tsv ? CSVDialect.tsv : CSVDialect.csv
    var writer = CSVWriter(dialect: dialect, reservingCapacity: chunkSize + chunkSize / 4)
    try records.withUnsafeBufferPointer { (records) throws(Failure) in
      let names = columns(of: records)
      writer.appendHeader(names)
      var cells: [CSVWriter.Cell] = []
      cells.reserveCapacity(names.count)
      for record in records {
        cells.removeAll(keepingCapacity: true)
        for name in names { cells.append(cell(value(name, in: record))) }
        writer.appendRow(cells)
        if writer.bytes.count >= chunkSize {
          try writer.bytes.withUnsafeBufferPointer { (chunk) throws(Failure) in try sink(chunk) }
          writer.removeAll()
        }
      }
    }
    try writer.bytes.withUnsafeBufferPointer { (chunk) throws(Failure) in try sink(chunk) }
  }
}
