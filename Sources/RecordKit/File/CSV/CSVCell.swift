/// Where one cell of a CSV or TSV row lies in the file's bytes, and whether it was quoted.
///
/// Made by `CSVTable` on demand from its packed storage; holds no text. The text is read
/// with `text(in:escaping:)` (or `CSVTable.text(of:in:)`), which is what a cell's bytes
/// mean once quotes or escapes are undone.
package struct CSVCell: Equatable, Hashable, Sendable {
  /// The cell's bytes: for a quoted cell from its opening quote to one past its closing
  /// quote; for another, from its first byte to the delimiter or line break after it.
  package var range: Range<Int>
  /// Whether the cell is wrapped in quotes (never, in a `.tsv` file).
  package var isQuoted: Bool

  package init(range: Range<Int>, isQuoted: Bool) {
    self.range = range
    self.isQuoted = isQuoted
  }

  /// The bytes inside the quotes of a quoted cell; the whole range of another.
  package var contentRange: Range<Int> {
    isQuoted ? range.lowerBound + 1..<range.upperBound - 1 : range
  }

  /// Whether the cell holds no value: unquoted and empty (`a,,b`). A quoted `""` holds the
  /// empty string.
  package var isAbsent: Bool { !isQuoted && range.isEmpty }
}
