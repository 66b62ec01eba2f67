/// Writes rows of a CSV or TSV file in a dialect: cells copied from the bytes read, cells
/// written from text, and the delimiters and line endings between them.
///
/// A `.csv` cell's text is quoted only where it must be (`needsQuotes`): when it holds
/// the delimiter, a quote, CR or LF, when it is empty (an unquoted empty cell is an absent
/// value, so the empty string is `""`), or when it starts with the byte order mark's
/// character (which at the start of a file would read as the mark); or when the caller
/// keeps the quotes a cell had. A `.tsv` cell's tab, LF, CR and backslash are written
/// `\t`, `\n`, `\r` and `\\`, which the reader reads back; a `.tsv` cannot tell the empty
/// string from an absent value, and both are written as nothing.
///
/// The bytes accumulate in `bytes`; appending costs the bytes appended.
package struct CSVWriter: Sendable {
  package let dialect: CSVDialect
  package private(set) var bytes: [UInt8] = []

  package init(dialect: CSVDialect, reservingCapacity capacity: Int = 0) {
    self.dialect = dialect
    bytes.reserveCapacity(capacity)
  }

  /// One cell of a row to write.
  package enum Cell: Equatable, Sendable {
    /// No value: an unquoted empty cell.
    case absent
    /// A cell written from its text, quoted where it must be, or always (`.csv` only) when
    /// `keepingQuotes` (the cell it replaces was quoted).
    case text(String, keepingQuotes: Bool = false)
    /// The bytes of a cell read from the source bytes given with the row, copied as they
    /// are (quotes and escapes included): an unchanged cell keeps its spelling.
    case original(Range<Int>)
  }

  /// Empties `bytes`, keeping their storage: a save hands each chunk on, then writes the
  /// next one in the same memory.
  package mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// Appends `bytes` as they are: the byte order mark, an unchanged row, a gap of empty lines.
  package mutating func append(_ bytes: some Sequence<UInt8>) {
    self.bytes.append(contentsOf: bytes)
  }

  /// Appends the dialect's line ending.
  package mutating func appendLineEnding() {
    switch dialect.lineEnding {
    case .lf: bytes.append(0x0A)
    case .crlf: bytes.append(contentsOf: [0x0D, 0x0A])
    case .cr: bytes.append(0x0D)
    }
  }

  /// Appends a header row naming `names`, ended by the dialect's line ending when
  /// `endingLine`.
  ///
  /// A `.csv` reader takes the delimiter from the first `,` or `;` of the header outside
  /// quotes, so the first name is quoted when it holds either: `"a,b";c` stays a file of
  /// semicolons.
  package mutating func appendHeader(_ names: [String], endingLine: Bool = true) {
    for (column, name) in names.enumerated() {
      if column > 0 { bytes.append(dialect.delimiter.byte) }
      let holdsDelimiter = name.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }
      appendText(name, keepingQuotes: column == 0 && holdsDelimiter)
    }
    if endingLine { appendLineEnding() }
  }

  /// Appends a row of `cells` (copying `.original` ones from `source`, the bytes read),
  /// with the delimiter between them, ended by the dialect's line ending when `endingLine`.
  ///
  /// A row of one cell that would be written as nothing would read as an empty line, which
  /// is no row: in a `.csv` it is written `""` (as Python's csv module writes it), so it
  /// reads back as the empty string; a `.tsv` has no way to write it.
  package mutating func appendRow(
    _ cells: some Collection<Cell>, source: UnsafeBufferPointer<UInt8>, endingLine: Bool = true
  ) {
    let rowStart = bytes.count
    for (index, cell) in cells.enumerated() {
      if index > 0 { bytes.append(dialect.delimiter.byte) }
      switch cell {
      case .absent: break
      case .text(let text, let keepingQuotes): appendText(text, keepingQuotes: keepingQuotes)
      case .original(let range): bytes.append(contentsOf: source[range])
      }
    }
    if bytes.count == rowStart, dialect.escaping == .quotes, !cells.isEmpty {
      bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\"")])
    }
    if endingLine { appendLineEnding() }
  }

  /// Appends a row of `cells`, none of which is `.original` (there are no source bytes).
  package mutating func appendRow(_ cells: some Collection<Cell>, endingLine: Bool = true) {
    appendRow(cells, source: UnsafeBufferPointer(start: nil, count: 0), endingLine: endingLine)
  }

  /// Appends one cell written from `text` (see `Cell.text`), with no delimiter.
  package mutating func appendText(_ text: String, keepingQuotes: Bool) {
    switch dialect.escaping {
    case .quotes:
      guard keepingQuotes || Self.needsQuotes(text, delimiter: dialect.delimiter.byte) else {
        bytes.append(contentsOf: text.utf8)
        return
      }
      bytes.append(UInt8(ascii: "\""))
      for byte in text.utf8 {
        bytes.append(byte)
        if byte == UInt8(ascii: "\"") { bytes.append(byte) }
      }
      bytes.append(UInt8(ascii: "\""))
    case .backslashes:
      for byte in text.utf8 {
        switch byte {
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        default: bytes.append(byte)
        }
      }
    }
  }

  /// Whether `text` must be quoted in a `.csv` cell between `delimiter`s to read back as
  /// itself.
  package static func needsQuotes(_ text: String, delimiter: UInt8) -> Bool {
    let utf8 = text.utf8
    guard !utf8.isEmpty, !utf8.starts(with: CSVDialect.byteOrderMark) else { return true }
    return utf8.contains { byte in
      byte == delimiter || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D
    }
  }
}
