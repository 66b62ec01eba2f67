@testable import RecordKit

/// What the CSV tests read, write and compare: a table's texts, and the two ways of
/// writing a table back (unchanged, and every cell written afresh from its text).
enum CSVTestSupport {
  /// A file read: the header and each row's texts, `nil` for an absent cell.
  struct Texts: Equatable, CustomStringConvertible {
    var header: [String]
    var rows: [[String?]]

    var description: String { "header \(header), rows \(rows)" }
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  static func read(_ bytes: [UInt8], tabSeparated: Bool = false) throws(CSVSyntaxError) -> CSVTable {
    try CSVReader.read(bytes, tabSeparated: tabSeparated)
  }

  static func texts(of table: CSVTable, in bytes: [UInt8]) -> Texts {
    bytes.withUnsafeBufferPointer { buffer in
      let rows = (0..<table.rowCount).map { row in
        (0..<table.columnCount).map { column -> String? in
          let cell = table.cell(row: row, column: column)
          return cell.isAbsent ? nil : table.text(of: cell, in: buffer)
        }
      }
      return Texts(header: table.header, rows: rows)
    }
  }

  static func texts(_ bytes: [UInt8], tabSeparated: Bool = false) throws(CSVSyntaxError) -> Texts {
    texts(of: try read(bytes, tabSeparated: tabSeparated), in: bytes)
  }

  /// The table written back as it was read: the prefix, each row (header included) as
  /// its cells' own bytes joined by the delimiter plus its own line break, and the gaps.
  /// Equal to the bytes exactly when the table's spans account for every byte.
  static func writtenBack(_ table: CSVTable, _ bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBufferPointer { source in
      var writer = CSVWriter(dialect: table.dialect)
      writer.append(source[table.prefix])
      if let header = table.headerSpan {
        let cells = (0..<table.columnCount).map { CSVWriter.Cell.original(table.headerCell($0).range) }
        writer.appendRow(cells, source: source, endingLine: false)
        writer.append(source[header.lineBreak])
      }
      for row in 0..<table.rowCount {
        writer.append(source[table.gap(beforeRow: row)])
        let cells = (0..<table.columnCount).map {
          CSVWriter.Cell.original(table.cell(row: row, column: $0).range)
        }
        writer.appendRow(cells, source: source, endingLine: false)
        writer.append(source[table.rowSpan(row).lineBreak])
      }
      writer.append(source[table.trailingGap])
      return writer.bytes
    }
  }

  /// The table written afresh in its dialect: the byte order mark if it had one, the
  /// header, every cell from its text (`keepingQuotes` where it was quoted, if asked),
  /// the dialect's line ending after each row and a final one if the file had one.
  static func reencoded(_ table: CSVTable, _ bytes: [UInt8], keepingQuotes: Bool = false) -> [UInt8] {
    let texts = texts(of: table, in: bytes)
    var writer = CSVWriter(dialect: table.dialect)
    if table.dialect.hasByteOrderMark { writer.append(CSVDialect.byteOrderMark) }
    guard table.headerSpan != nil else { return writer.bytes }
    writer.appendHeader(texts.header, endingLine: !texts.rows.isEmpty || table.dialect.endsWithLineBreak)
    for (index, row) in texts.rows.enumerated() {
      let cells = row.enumerated().map { column, text -> CSVWriter.Cell in
        guard let text else { return .absent }
        return .text(text, keepingQuotes: keepingQuotes && table.cell(row: index, column: column).isQuoted)
      }
      writer.appendRow(cells, endingLine: index < texts.rows.count - 1 || table.dialect.endsWithLineBreak)
    }
    return writer.bytes
  }
}
