/// Why bytes are not a CSV or TSV table that recsh reads, and where.
///
/// The reason is an enum with its context as values, worded in one `switch` (`message`),
/// so that tests match on cases and the executable prints one form:
/// `FILE:LINE:COLUMN: error: MESSAGE`. The position is the offending byte's, counted as a
/// `JSONPosition` is: 1-based line and column (in Unicode scalars, from after a byte order
/// mark), lines ending at LF, CR LF or a lone CR.
public struct CSVSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  public var reason: Reason
  public var position: JSONPosition

  package var line: Int { position.line }
  package var column: Int { position.column }
  package var offset: Int { position.offset }

  package init(_ reason: Reason, at position: JSONPosition) {
    self.reason = reason
    self.position = position
  }

  /// `LINE:COLUMN: MESSAGE`; the caller puts the file name in front.
  public var description: String { "\(position): \(message)" }

  public enum Reason: Equatable, Hashable, Sendable {
    /// A byte that does not start a well-formed UTF-8 sequence, at this offset.
    case invalidUTF8(offset: Int)
    /// The file's first line is empty, so no header row names the columns.
    case emptyHeaderRow
    /// The header name of this column (1-based) is empty.
    case emptyHeaderName(column: Int)
    /// The header name at `column` (1-based) is the one at `firstColumn` again.
    case repeatedHeaderName(String, column: Int, firstColumn: Int)
    /// A row with `cells` cells where the header has `columns`: positioned at the first
    /// extra cell, or at the start of a row that has too few.
    case cellCount(cells: Int, columns: Int)
    /// A quoted cell whose closing quote never comes: positioned at its opening quote.
    case unclosedQuote
    /// Something other than the delimiter or a line break right after a closing quote.
    case textAfterClosingQuote(Unicode.Scalar, delimiter: Unicode.Scalar)
  }

  /// The reason in words: lowercase, file text in quotes.
  public var message: String {
    switch reason {
    case .invalidUTF8(let offset):
      "invalid UTF-8 at byte offset \(offset)"
    case .emptyHeaderRow:
      "the header row is empty: the first line must name the columns"
    case .emptyHeaderName(let column):
      "the header name of column \(column) is empty"
    case .repeatedHeaderName(let name, let column, let firstColumn):
      "the header name \(JSONSyntaxError.quote(name)) of column \(column) repeats column \(firstColumn)'s"
    case .cellCount(let cells, let columns):
      "row has \(cells) \(cells == 1 ? "cell" : "cells"), the header has \(columns)"
    case .unclosedQuote:
      "quoted cell never closes: no closing '\"' before the end of the file"
    case .textAfterClosingQuote(let found, let delimiter):
      "expected \(JSONSyntaxError.describe(delimiter)) or a line break after a closing quote, found "
        + JSONSyntaxError.describe(found)
    }
  }
}
