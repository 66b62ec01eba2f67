/// Reads a CSV or TSV file's bytes into a `CSVTable`: its header and where each row and
/// cell lies.
///
/// The rules are those of Python's csv module (default dialect, `strict=True`): a cell
/// that starts with `"` is quoted and runs to the next `"` that is not doubled, line breaks
/// inside included; a quote inside an unquoted cell is text (`a"b`); lines end at LF,
/// CR LF or a lone CR; an empty line (nothing between two line breaks) is no row, and its
/// bytes lie in the gap before the next row. A `.tsv` has no quoting at all. The first row
/// is the header; every other row has its number of cells.
///
/// Refused, with the offending byte's position (`CSVSyntaxError`): bytes that are not
/// UTF-8 (checked first, so the first bad byte is named whatever else is wrong), a first
/// line that is empty, an empty or repeated header name (repeated as Swift compares
/// strings: `é` written as one scalar or as `e` and an accent is one field's name), a
/// quoted cell that never closes, text after a closing quote, a row with another number of
/// cells than the header. A syntax error inside a row is reported before its cell count. A
/// file of no bytes, or only a byte order mark, is a table with no header and no rows.
///
/// Cost: one pass over the bytes (eight at a time inside cells), one `Int` stored per cell
/// and two per row; no allocation per cell or row beyond the arrays' growth, and a
/// `String` only for each header name.
package struct CSVReader {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let delimiter: UInt8
  private let quoting: Bool
  private var index: Int
  private var lineStarts: [Int] = []
  private var lineEnds: [Int] = []
  private var cellEnds: [Int] = []

  private init(bytes: UnsafeBufferPointer<UInt8>, dialect: CSVDialect, start: Int) {
    self.bytes = bytes
    delimiter = dialect.delimiter.byte
    quoting = dialect.escaping == .quotes
    index = start
  }

  /// The table in `bytes`, a `.tsv` file's when `tabSeparated`, else a `.csv` file's.
  package static func read(_ bytes: UnsafeBufferPointer<UInt8>, tabSeparated: Bool) throws(CSVSyntaxError)
    -> CSVTable
  {
    let dialect = CSVDialect(detectingIn: bytes, tabSeparated: tabSeparated)
    let textStart = dialect.hasByteOrderMark ? 3 : 0
    func fail(_ reason: CSVSyntaxError.Reason, at offset: Int) -> CSVSyntaxError {
      CSVSyntaxError(
        reason,
        at: JSONPosition(line: 1, column: 1, offset: textStart).advanced(to: offset, in: bytes))
    }
    if let bad = UTF8Validation.firstInvalidOffset(in: bytes, textStart..<bytes.count) {
      throw fail(.invalidUTF8(offset: bad), at: bad)
    }
    var reader = CSVReader(bytes: bytes, dialect: dialect, start: textStart)
    guard textStart < bytes.count else {
      return CSVTable(
        dialect: dialect, header: [], textStart: textStart, byteCount: bytes.count, lineStarts: [],
        lineEnds: [], cellEnds: [])
    }
    if reader.atLineBreak { throw fail(.emptyHeaderRow, at: textStart) }
    let columns: Int
    do {
      columns = try reader.readLine()
    } catch {
      throw fail(error.reason, at: error.offset)
    }
    let header = try reader.header(columns: columns, escaping: dialect.escaping, fail: fail)
    while reader.index < bytes.count {
      if reader.atLineBreak {
        reader.skipLineBreak()
        continue
      }
      let rowStart = reader.index
      let firstCell = reader.cellEnds.count
      let cells: Int
      do {
        cells = try reader.readLine()
      } catch {
        throw fail(error.reason, at: error.offset)
      }
      if cells != columns {
        let offset = cells > columns ? (reader.cellEnds[firstCell + columns - 1] >> 1) + 1 : rowStart
        throw fail(.cellCount(cells: cells, columns: columns), at: offset)
      }
    }
    return CSVTable(
      dialect: dialect, header: header, textStart: textStart, byteCount: bytes.count,
      lineStarts: reader.lineStarts, lineEnds: reader.lineEnds, cellEnds: reader.cellEnds)
  }

  /// The table in `bytes` (see `read(_:tabSeparated:)` over a buffer).
  package static func read(_ bytes: [UInt8], tabSeparated: Bool) throws(CSVSyntaxError) -> CSVTable {
    try bytes.withUnsafeBufferPointer { (buffer) throws(CSVSyntaxError) -> CSVTable in
      try read(buffer, tabSeparated: tabSeparated)
    }
  }

  /// A reason found by `readLine`, at a byte offset not yet turned into a position.
  private struct Failure: Error {
    var reason: CSVSyntaxError.Reason
    var offset: Int
  }

  private var atLineBreak: Bool { bytes[index] == 0x0A || bytes[index] == 0x0D }

  /// Steps over the LF, CR LF or CR at `index`.
  private mutating func skipLineBreak() {
    if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
    index += 1
  }

  /// Reads the line that starts at `index` (not at a line break) and its line break,
  /// storing its cells and bounds; returns how many cells it has.
  private mutating func readLine() throws(Failure) -> Int {
    let start = index
    var cells = 0
    while true {
      let end: Int
      var quoted = 0
      if quoting, index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
        guard let close = CSVScan.endOfQuotedCell(in: bytes, openingAt: index) else {
          throw Failure(reason: .unclosedQuote, offset: index)
        }
        if close < bytes.count, bytes[close] != delimiter, bytes[close] != 0x0A, bytes[close] != 0x0D {
          let found = UTF8Validation.scalar(in: bytes, at: close) ?? "\u{FFFD}"
          throw Failure(
            reason: .textAfterClosingQuote(found, delimiter: Unicode.Scalar(delimiter)), offset: close)
        }
        end = close
        quoted = 1
      } else {
        end = CSVScan.endOfUnquotedCell(in: bytes, from: index, delimiter: delimiter)
      }
      cellEnds.append(end << 1 | quoted)
      cells += 1
      index = end
      guard index < bytes.count, bytes[index] == delimiter else { break }
      index += 1
    }
    if index < bytes.count { skipLineBreak() }
    lineStarts.append(start)
    lineEnds.append(index)
    return cells
  }

  /// The header's names, each checked to be non-empty and unlike the ones before it.
  private func header(
    columns: Int, escaping: CSVDialect.Escaping, fail: (CSVSyntaxError.Reason, Int) -> CSVSyntaxError
  ) throws(CSVSyntaxError) -> [String] {
    var names: [String] = []
    names.reserveCapacity(columns)
    var seen: [String: Int] = [:]
    for column in 0..<columns {
      let end = cellEnds[column] >> 1
      let start = column == 0 ? lineStarts[0] : (cellEnds[column - 1] >> 1) + 1
      let cell = CSVCell(range: start..<end, isQuoted: cellEnds[column] & 1 == 1)
      let name = cell.text(in: bytes, escaping: escaping)
      if name.isEmpty { throw fail(.emptyHeaderName(column: column + 1), start) }
      if let first = seen[name] {
        throw fail(.repeatedHeaderName(name, column: column + 1, firstColumn: first + 1), start)
      }
      seen[name] = column
      names.append(name)
    }
    return names
  }
}
