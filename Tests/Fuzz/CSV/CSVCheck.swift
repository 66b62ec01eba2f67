import RecordKit

/// What must hold for any bytes read as a `.csv` and as a `.tsv` file: a thrown
/// `CSVSyntaxError` is an answer, a trap or a failed precondition is a bug.
///
/// - An error's position lies inside the input (a line and column from 1) and is worded.
/// - A table that is read has the dialect detection gives; its header row, rows and the
///   gaps between them tile the file, each row's cells lie in order inside it, and the
///   cells copied back (`CSVWriter.Cell.original`) with each row's line break and the
///   gaps give the input's bytes.
/// - Written afresh from its texts (quoted where it must be, or also where it was), the
///   table reads back as the same header, the same texts and absent cells, and the same
///   dialect.
enum CSVCheck {
  static func check(_ bytes: [UInt8]) {
    for tabSeparated in [false, true] {
      let table: CSVTable
      do {
        table = try CSVReader.read(bytes, tabSeparated: tabSeparated)
      } catch {
        precondition(error.line >= 1 && error.column >= 1, "\(error)")
        // At most the end: an empty cell that ends the file starts there (`a,`).
        precondition(0 <= error.offset && error.offset <= bytes.count, "\(error) for \(bytes.count) bytes")
        precondition(!error.description.isEmpty)
        continue
      }
      precondition(table.dialect == CSVDialect(detectingIn: bytes, tabSeparated: tabSeparated))
      let texts = bytes.withUnsafeBufferPointer { checkSpans(table, $0) }
      for keepingQuotes in [false, true] {
        let fresh = written(table, texts, keepingQuotes: keepingQuotes)
        let again: CSVTable
        do {
          again = try CSVReader.read(fresh, tabSeparated: tabSeparated)
        } catch {
          preconditionFailure("written afresh, the table is refused: \(error)")
        }
        precondition(again.dialect == table.dialect, "\(again.dialect) != \(table.dialect)")
        let textsAgain = fresh.withUnsafeBufferPointer { checkSpans(again, $0) }
        precondition(textsAgain.header == texts.header, "the header reads back otherwise")
        precondition(textsAgain.rows == texts.rows, "the rows read back otherwise")
      }
    }
  }

  struct Texts {
    var header: [String]
    /// Each row's cells' texts, `nil` for an absent cell; with whether each was quoted.
    var rows: [[String?]]
    var quoted: [[Bool]]
  }

  /// Checks that the table's spans tile `bytes` and returns its texts.
  static func checkSpans(_ table: CSVTable, _ bytes: UnsafeBufferPointer<UInt8>) -> Texts {
    var writer = CSVWriter(dialect: table.dialect)
    writer.append(bytes[table.prefix])
    var texts = Texts(header: table.header, rows: [], quoted: [])
    guard let header = table.headerSpan else {
      precondition(table.rowCount == 0 && table.header.isEmpty && table.trailingGap.isEmpty)
      precondition(writer.bytes.elementsEqual(bytes), "a table with no header holds more than a mark")
      return texts
    }
    precondition(header.start == table.prefix.upperBound)
    func copyRow(_ span: CSVRowSpan, _ cells: [CSVCell]) {
      var end = span.start
      for (index, cell) in cells.enumerated() {
        precondition(cell.range.lowerBound == (index == 0 ? span.start : end + 1), "cells out of order")
        precondition(cell.range.upperBound <= span.contentEnd)
        end = cell.range.upperBound
      }
      precondition(end == span.contentEnd, "the last cell does not end the row")
      writer.appendRow(cells.map { .original($0.range) }, source: bytes, endingLine: false)
      writer.append(bytes[span.lineBreak])
    }
    let headerCells = (0..<table.columnCount).map { table.headerCell($0) }
    precondition(headerCells.map { table.text(of: $0, in: bytes) } == table.header)
    copyRow(header, headerCells)
    for row in 0..<table.rowCount {
      writer.append(bytes[table.gap(beforeRow: row)])
      let cells = (0..<table.columnCount).map { table.cell(row: row, column: $0) }
      copyRow(table.rowSpan(row), cells)
      texts.rows.append(cells.map { $0.isAbsent ? nil : table.text(of: $0, in: bytes) })
      texts.quoted.append(cells.map(\.isQuoted))
    }
    writer.append(bytes[table.trailingGap])
    precondition(writer.bytes.elementsEqual(bytes), "the spans do not give back the bytes")
    return texts
  }

  /// The table written from its texts in its dialect.
  static func written(_ table: CSVTable, _ texts: Texts, keepingQuotes: Bool) -> [UInt8] {
    var writer = CSVWriter(dialect: table.dialect)
    if table.dialect.hasByteOrderMark { writer.append(CSVDialect.byteOrderMark) }
    guard table.headerSpan != nil else { return writer.bytes }
    let finalBreak = table.dialect.endsWithLineBreak
    writer.appendHeader(texts.header, endingLine: !texts.rows.isEmpty || finalBreak)
    for (index, row) in texts.rows.enumerated() {
      let cells = zip(row, texts.quoted[index]).map { text, quoted -> CSVWriter.Cell in
        text.map { .text($0, keepingQuotes: keepingQuotes && quoted) } ?? .absent
      }
      writer.appendRow(cells, endingLine: index < texts.rows.count - 1 || finalBreak)
    }
    return writer.bytes
  }
}
