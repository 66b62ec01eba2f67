/// A CSV or TSV file's save over its bytes (`FileImage.rewrite`): rows the document has not
/// changed keep their bytes; a changed row keeps every cell whose text still holds the
/// record's value (`5` for the number 5 or the string "5") and writes the others anew,
/// quoted where they must be or where the old cell was; a new row is written whole in the
/// file's dialect. A field no column holds (`set +color red`) adds a column: the header
/// names it and every other row gets an absent cell for it, until no record holds it.
extension FileImage {
  /// The header's columns, then every field a record of `document` holds that the header
  /// lacks, in the order first met: only new and changed records are looked at when the
  /// change marks can be trusted (a row read from the file holds only its columns), and of
  /// each only the declared fields the header lacks and its custom keys. O(records looked
  /// at × (declared fields not in the header + custom keys)).
  func tableColumns<Root: Record>(of document: Document<Root>, header: [String], trustMarks: Bool) -> [String]
  {
    let table = Root.fields
    var columns = header
    var known = Set(header)
    let missing = table.fields.filter { !known.contains($0.name) }
    for position in 0..<document.count
    where !trustMarks || document.mayHaveChanged(document.number(at: position)) {
      document.withRecord(at: position) { record in
        for field in missing where !known.contains(field.name) && field.json(in: record.pointee) != nil {
          known.insert(field.name)
          columns.append(field.name)
        }
        guard !record.pointee.custom.isEmpty else { return }
        for key in table.customKeys(of: record.pointee) where known.insert(key).inserted {
          columns.append(key)
        }
      }
    }
    return columns
  }

  /// The byte order mark and the header row as read, with the names of `columns` past the
  /// header's added.
  func writeHeader(
    _ table: CSVTable, columns: [String], in bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]
  ) {
    out += bytes[..<inner.lowerBound]
    guard columns.count > table.header.count else { return }
    var writer = CSVWriter(dialect: table.dialect)
    for name in columns[table.header.count...] {
      writer.append([table.dialect.delimiter.byte])
      writer.appendText(name, keepingQuotes: false)
    }
    out += writer.bytes
  }

  /// `record` as a row in `columns`: over row `ordinal`'s cells, each kept where its text
  /// holds the record's value; or all anew (`ordinal` nil). Without its line break.
  /// `fields`: each column's declared field (`nil`: a custom key), found once per save.
  func writeRow<Root: Record>(
    _ record: Root, over ordinal: Int?, _ table: CSVTable, columns: [String],
    fields: [(any FieldAccessor<Root>)?], in bytes: UnsafeBufferPointer<UInt8>,
    into out: inout [UInt8]
  ) {
    var cells: [CSVWriter.Cell] = []
    cells.reserveCapacity(columns.count)
    for (column, name) in columns.enumerated() {
      let value = fields[column].map { $0.json(in: record) } ?? record.custom[name]
      guard let ordinal, column < table.header.count else {
        cells.append(DelimitedFile<Root>.cell(value))
        continue
      }
      let old = table.cell(row: ordinal, column: column)
      if Self.cell(old, of: table, in: bytes, holds: value) {
        cells.append(.original(old.range))
      } else {
        cells.append(DelimitedFile<Root>.cell(value, keepingQuotes: old.isQuoted))
      }
    }
    var writer = CSVWriter(dialect: table.dialect)
    writer.appendRow(cells, source: bytes, endingLine: false)
    out += writer.bytes
  }

  /// Whether row `row` of this table holds `record`'s value in every column.
  func rowHolds<Root: Record>(_ record: Root, row: Int, _ table: CSVTable, in bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { bytes in
      table.header.enumerated().allSatisfy { column, name in
        Self.cell(
          table.cell(row: row, column: column), of: table, in: bytes,
          holds: DelimitedFile<Root>.value(name, in: record))
      }
    }
  }

  /// Whether `cell`'s text is what `value` is written as: an absent cell for no value or
  /// null, else the same text (a string, a number's spelling, `true`/`false`); a list or
  /// an object never.
  static func cell(
    _ cell: CSVCell, of table: CSVTable, in bytes: UnsafeBufferPointer<UInt8>, holds value: JSONValue?
  )
    -> Bool
  {
    let text: String
    switch value {
    case nil, .null?: return cell.isAbsent
    case .string(let string)?: text = string
    case .number(let spelling)?: text = spelling
    case .bool(let flag)?: text = flag ? "true" : "false"
    case .array?, .object?: return false
    }
    guard !cell.isAbsent else { return false }
    // An unquoted CSV cell is its text: compared in place, no `String` made.
    if !cell.isQuoted, table.dialect.escaping == .quotes {
      return text.utf8.elementsEqual(bytes[cell.range])
    }
    return table.text(of: cell, in: bytes) == text
  }
}
