/// A CSV or TSV file as read: its dialect, its header, and where every row and cell lies
/// in its bytes.
///
/// Holds no cell text and does not own the bytes: a cell's text is read on demand from the
/// bytes the table was read from (`text(row:column:in:)`), so that a save copies the bytes
/// of every row and cell it does not change. The bytes tile exactly as
/// `prefix` (the byte order mark), the header row, then for each row `gap(beforeRow:)` (the
/// empty lines before it) and the row, then `trailingGap`.
///
/// Memory: one `Int` per cell (its end, and whether it is quoted, packed) and two per row;
/// every row has the header's cell count, so a cell is found by arithmetic, in O(1).
package struct CSVTable: Sendable {
  package let dialect: CSVDialect
  /// The column names, decoded; empty for a file of no bytes (or only a byte order mark).
  package let header: [String]
  /// Where the header row starts: after the byte order mark.
  package let textStart: Int
  /// The size of the file read.
  package let byteCount: Int
  /// Each line that holds a row, the header first: its start and one past its line break.
  let lineStarts: [Int]
  let lineEnds: [Int]
  /// Each cell's end shifted left by one, its low bit set when it is quoted; line by line.
  let cellEnds: [Int]

  init(
    dialect: CSVDialect, header: [String], textStart: Int, byteCount: Int, lineStarts: [Int],
    lineEnds: [Int], cellEnds: [Int]
  ) {
    self.dialect = dialect
    self.header = header
    self.textStart = textStart
    self.byteCount = byteCount
    self.lineStarts = lineStarts
    self.lineEnds = lineEnds
    self.cellEnds = cellEnds
  }

  package var columnCount: Int { header.count }
  /// How many rows the file holds below its header.
  package var rowCount: Int { max(lineStarts.count - 1, 0) }

  /// The byte order mark, or nothing.
  package var prefix: Range<Int> { 0..<textStart }

  /// The header row's bytes; `nil` for a file with no header (no bytes but a byte order mark).
  package var headerSpan: CSVRowSpan? { lineStarts.isEmpty ? nil : span(ofLine: 0) }

  /// The bytes of data row `row` (0-based, below the header). Needs `row < rowCount`.
  package func rowSpan(_ row: Int) -> CSVRowSpan { span(ofLine: row + 1) }

  /// The empty lines between row `row` (0-based) and the row (or header) before it.
  package func gap(beforeRow row: Int) -> Range<Int> { lineEnds[row]..<lineStarts[row + 1] }

  /// The empty lines after the last row (or the header); empty for a file with no header.
  package var trailingGap: Range<Int> { (lineEnds.last ?? byteCount)..<byteCount }

  /// Cell `column` of the header row.
  package func headerCell(_ column: Int) -> CSVCell { cell(line: 0, column: column) }

  /// Cell `column` of data row `row` (both 0-based, in range).
  package func cell(row: Int, column: Int) -> CSVCell { cell(line: row + 1, column: column) }

  /// The text of `cell`, a cell of this table, in `bytes`, the bytes it was read from.
  package func text(of cell: CSVCell, in bytes: UnsafeBufferPointer<UInt8>) -> String {
    cell.text(in: bytes, escaping: dialect.escaping)
  }

  /// The text of cell `column` of row `row` in `bytes`, the bytes the table was read from.
  package func text(row: Int, column: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
    text(of: cell(row: row, column: column), in: bytes)
  }

  func span(ofLine line: Int) -> CSVRowSpan {
    let lastCell = cellEnds[(line + 1) * header.count - 1] >> 1
    return CSVRowSpan(start: lineStarts[line], contentEnd: lastCell, end: lineEnds[line])
  }

  func cell(line: Int, column: Int) -> CSVCell {
    precondition(column >= 0 && column < header.count, "column \(column) of \(header.count)")
    let index = line * header.count + column
    let packed = cellEnds[index]
    let start = column == 0 ? lineStarts[line] : (cellEnds[index - 1] >> 1) + 1
    return CSVCell(range: start..<packed >> 1, isQuoted: packed & 1 == 1)
  }
}
