import RecordKit

/// Results in the session's `OutputFormat`: records (`list`, `show`), a count, and rows of
/// named columns (`history`, `fields`). The table format of each is its renderer's.
enum RecordOutput {
  /// `list`: the records at `positions` (of the `matched` that passed the filters).
  /// `columns`: `fields F1,F2`; `nil`: the table's usual columns, or every field for the
  /// other formats (JSON: the records whole).
  static func list<Root: Record>(
    _ document: Document<Root>, positions: [Int], matched: Int, columns: [any FieldAccessor<Root>]?,
    format: OutputFormat
  ) -> String {
    switch format {
    case .table:
      return RecordRenderer.list(document, positions: positions, matched: matched, columns: columns)
    case .json, .jsonl:
      // (Whole records are the session's `.outputBytes`, see `Session.list`.)
      guard let columns else {
        return String(
          decoding: RecordFile<Root>.encode(document.records, at: positions, lines: format == .jsonl),
          as: UTF8.self)
      }
      return projected(document, positions, columns, lines: format == .jsonl)
    case .csv, .tsv:
      let columns = columns ?? allColumns(document, positions)
      return separated(
        header: columns.map(\.name),
        rows: positions.map { position in columns.map { $0.json(in: document.records[position]) } },
        tabs: format == .tsv)
    }
  }

  /// `show` of the record at `position`.
  static func show<Root: Record>(_ document: Document<Root>, position: Int, format: OutputFormat) -> String {
    switch format {
    case .table: return RecordRenderer.show(document.records[position])
    case .json:
      // One record, laid out as in the file: the array's element without the array.
      var writer = JSONWriter()
      writer.value(.object(Root.fields.encode(document.records[position])))
      writer.finish()
      return writer.text
    case .jsonl, .csv, .tsv:
      return list(document, positions: [position], matched: 1, columns: nil, format: format)
    }
  }

  /// `count`: the number alone, `{"count": N}`, or a one-column table.
  static func count(_ count: Int, format: OutputFormat) -> String {
    switch format {
    case .table: String(count)
    case .json, .jsonl: "{\"count\": \(count)}"
    case .csv, .tsv: "count\(format == .csv ? "\r\n" : "\n")\(count)"
    }
  }

  /// Rows of named columns in a machine format: JSON an array of objects, JSON Lines one
  /// object per line, CSV and TSV a header and a line per row. (Tables are the
  /// renderers' own: asked for `.table`, this gives JSON.)
  static func rows(columns: [String], _ rows: [[JSONValue?]], format: OutputFormat) -> String {
    switch format {
    case .table, .json:
      var writer = JSONWriter()
      writer.beginArray()
      for row in rows { writeObject(columns, row, to: &writer) }
      writer.endArray()
      writer.finish()
      return writer.text
    case .jsonl:
      var writer = JSONWriter(compact: true)
      for row in rows {
        writeObject(columns, row, to: &writer)
        writer.lineBreak()
      }
      return writer.text
    case .csv, .tsv: return separated(header: columns, rows: rows, tabs: format == .tsv)
    }
  }

  private static func writeObject(_ columns: [String], _ row: [JSONValue?], to writer: inout JSONWriter) {
    writer.beginObject()
    for (column, value) in zip(columns, row) {
      guard let value else { continue }
      writer.key(column)
      writer.value(value)
    }
    writer.endObject()
  }

  /// Every declared field, then the custom keys of the records in the order first met.
  private static func allColumns<Root: Record>(_ document: Document<Root>, _ positions: [Int])
    -> [any FieldAccessor<Root>]
  {
    let table = Root.fields
    var columns: [any FieldAccessor<Root>] = table.fields
    var seen = Set(table.names)
    for position in positions {
      let record = document.records[position]
      guard !record.custom.isEmpty else { continue }
      for key in table.customKeys(of: record) where seen.insert(key).inserted {
        columns.append(FieldTable<Root>.custom(key))
      }
    }
    return columns
  }

  /// The records with only `columns`, in that order (an absent value left out).
  private static func projected<Root: Record>(
    _ document: Document<Root>, _ positions: [Int], _ columns: [any FieldAccessor<Root>], lines: Bool
  ) -> String {
    let names = columns.map(\.name)
    let rows = positions.map { position in columns.map { $0.json(in: document.records[position]) } }
    return self.rows(columns: names, rows, format: lines ? .jsonl : .json)
  }

  /// CSV (RFC 4180, CRLF line ends) or TSV (tabs, LF, `\t` `\n` `\r` `\\` escapes), written
  /// by the writer a CSV or TSV file is saved with (`CSVWriter`): a cell quoted only where
  /// it must be, the empty string as `""` (an absent value or null as nothing), a list or
  /// object as its compact JSON.
  static func separated(header: [String], rows: [[JSONValue?]], tabs: Bool) -> String {
    let dialect = tabs ? CSVDialect.tsv : CSVDialect(delimiter: .comma, escaping: .quotes, lineEnding: .crlf)
    var writer = CSVWriter(dialect: dialect)
    // The caller prints a line end after the output.
    writer.appendHeader(header, endingLine: !rows.isEmpty)
    for (index, row) in rows.enumerated() {
      writer.appendRow(
        row.map { value in
          switch value {
          case nil, .null?: .absent
          case .array?, .object?: .text(value.map(compactJSON) ?? "")
          case let scalar?: CSVWriter.Cell(scalar) ?? .absent
          }
        }, endingLine: index < rows.count - 1)
    }
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// A value in jq -c's layout, as JSON Lines prints it.
  static func compactJSON(_ value: JSONValue) -> String {
    var writer = JSONWriter(compact: true)
    writer.value(value)
    return writer.text
  }
}

extension String {
  /// Every `target` replaced by `replacement` (Foundation's `replacingOccurrences`, which
  /// this module does not import). By scalars, not characters: a quote followed by a
  /// combining mark is one `Character`, and must still be found.
  func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
    var out = ""
    for scalar in unicodeScalars {
      if scalar == target { out += replacement } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }
}
