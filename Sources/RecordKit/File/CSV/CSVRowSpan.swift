/// Where one row (or the header row) of a CSV or TSV file lies in its bytes.
///
/// A row runs from its first cell's first byte to one past its line break; the last row
/// of a file without a final line break ends with its last cell. The empty lines before
/// a row are not part of it: they are the gap between it and the row before
/// (`CSVTable.gap(beforeRow:)`), so a file is exactly its prefix, its header row, and
/// each row with the gap before it, then the trailing gap.
package struct CSVRowSpan: Equatable, Hashable, Sendable {
  /// The first byte of the row's first cell.
  package var start: Int
  /// One past the last byte of the row's last cell (where its line break starts).
  package var contentEnd: Int
  /// One past the row's line break (`contentEnd` when it has none).
  package var end: Int

  package init(start: Int, contentEnd: Int, end: Int) {
    self.start = start
    self.contentEnd = contentEnd
    self.end = end
  }

  /// The row's bytes, its line break included.
  package var range: Range<Int> { start..<end }
  /// The row's cells and the delimiters between them, without the line break.
  package var content: Range<Int> { start..<contentEnd }
  /// The row's line break: LF, CR LF, CR, or nothing for a last line that has none.
  package var lineBreak: Range<Int> { contentEnd..<end }
}
