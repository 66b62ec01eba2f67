/// How a CSV or TSV file spells its table: what a save needs to write new rows the way the
/// file's own rows are written.
///
/// Read off the file (`init(detectingIn:tabSeparated:)`) and kept: the delimiter, the way a
/// cell holds a delimiter or a line break (quotes in a `.csv`, backslash escapes in a
/// `.tsv`), the line ending, a UTF-8 byte order mark and whether the last line ends with a
/// line break. A value type of a few bytes; detection reads the header row only.
package struct CSVDialect: Equatable, Hashable, Sendable {
  /// The byte between two cells of a row.
  package enum Delimiter: UInt8, Equatable, Hashable, Sendable, CaseIterable {
    case comma = 0x2C
    case semicolon = 0x3B
    case tab = 0x09

    package var byte: UInt8 { rawValue }
  }

  /// How a cell holds the bytes that would otherwise end it.
  package enum Escaping: Equatable, Hashable, Sendable {
    /// RFC 4180: a cell may be wrapped in `"`, and `""` inside is one quote; a line break
    /// inside quotes is part of the cell. A quote inside an unquoted cell is text.
    case quotes
    /// No quoting: `\t`, `\n`, `\r` and `\\` in a cell stand for a tab, a line feed, a
    /// carriage return and a backslash; any other backslash is the text it is.
    case backslashes
  }

  /// The bytes that end a row.
  package enum LineEnding: Equatable, Hashable, Sendable, CaseIterable {
    case lf
    case crlf
    /// A lone carriage return, as classic Mac OS wrote text files; read as a line ending
    /// by the reader (and by Python's csv module), so kept for new rows too.
    case cr

    package var bytes: [UInt8] {
      switch self {
      case .lf: [0x0A]
      case .crlf: [0x0D, 0x0A]
      case .cr: [0x0D]
      }
    }
  }

  package var delimiter: Delimiter
  package var escaping: Escaping
  package var lineEnding: LineEnding
  /// Whether the file starts with the UTF-8 byte order mark `EF BB BF` (not part of the
  /// first header name).
  package var hasByteOrderMark: Bool
  /// Whether the file's last line ends with a line break.
  package var endsWithLineBreak: Bool

  package init(
    delimiter: Delimiter, escaping: Escaping, lineEnding: LineEnding = .lf, hasByteOrderMark: Bool = false,
    endsWithLineBreak: Bool = true
  ) {
    self.delimiter = delimiter
    self.escaping = escaping
    self.lineEnding = lineEnding
    self.hasByteOrderMark = hasByteOrderMark
    self.endsWithLineBreak = endsWithLineBreak
  }

  /// A new `.csv` file's dialect: commas, quotes, LF, no byte order mark, a final line break.
  package static let csv = CSVDialect(delimiter: .comma, escaping: .quotes)
  /// A new `.tsv` file's dialect: tabs, backslash escapes, LF, a final line break.
  package static let tsv = CSVDialect(delimiter: .tab, escaping: .backslashes)

  /// Whether this is the dialect of a `.tsv` file (tabs and backslash escapes).
  package var isTabSeparated: Bool { escaping == .backslashes }

  /// The byte order mark's bytes, which `hasByteOrderMark` says a file starts with.
  package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// The dialect `bytes` are written in, as a `.tsv` (`tabSeparated`) or a `.csv` file.
  ///
  /// - The delimiter of a `.csv` is whichever of `,` and `;` comes first in the header row
  ///   outside quotes (neither: `,`); a `.tsv`'s is a tab.
  /// - The line ending is the one that ends the header row (a line break inside a quoted
  ///   header name does not count); a file of one line gets LF.
  /// - A file that ends with CR or LF ends with a line break; so does, for the rows a
  ///   save adds, a file of no bytes (or only a byte order mark).
  ///
  /// Detection never fails: a file that does not read as a table still has a dialect, and
  /// the reader says what is wrong with it. O(bytes of the header row).
  package init(detectingIn bytes: UnsafeBufferPointer<UInt8>, tabSeparated: Bool) {
    let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    let start = hasMark ? 3 : 0
    let escaping: Escaping = tabSeparated ? .backslashes : .quotes
    let delimiter = tabSeparated ? .tab : Self.headerDelimiter(in: bytes, from: start)
    let ending = Self.headerLineEnding(in: bytes, from: start, delimiter: delimiter.byte, escaping: escaping)
    let last = bytes.count > start ? bytes[bytes.count - 1] : nil
    self.init(
      delimiter: delimiter, escaping: escaping, lineEnding: ending ?? .lf, hasByteOrderMark: hasMark,
      endsWithLineBreak: last.map { $0 == 0x0A || $0 == 0x0D } ?? true)
  }

  /// The dialect of `bytes` (see `init(detectingIn:tabSeparated:)`).
  package init(detectingIn bytes: [UInt8], tabSeparated: Bool) {
    self = bytes.withUnsafeBufferPointer { CSVDialect(detectingIn: $0, tabSeparated: tabSeparated) }
  }

  /// The first `,` or `;` of the header row that is not inside a quoted cell. Until one is
  /// found every cell is the first, so a quote opens a quoted cell only at `start`.
  private static func headerDelimiter(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Delimiter {
    var index = start
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      index = CSVScan.endOfQuotedCell(in: bytes, openingAt: index) ?? bytes.count
    }
    while index < bytes.count {
      switch bytes[index] {
      case Delimiter.comma.byte: return .comma
      case Delimiter.semicolon.byte: return .semicolon
      case 0x0A, 0x0D: return .comma
      default: index += 1
      }
    }
    return .comma
  }

  /// The line ending after the header row, or `nil` when the header row ends the file.
  private static func headerLineEnding(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, delimiter: UInt8, escaping: Escaping
  ) -> LineEnding? {
    var index = start
    var atCellStart = true
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A { return .lf }
      if byte == 0x0D { return index + 1 < bytes.count && bytes[index + 1] == 0x0A ? .crlf : .cr }
      if atCellStart, escaping == .quotes, byte == UInt8(ascii: "\"") {
        guard let end = CSVScan.endOfQuotedCell(in: bytes, openingAt: index) else { return nil }
        index = end
        atCellStart = false
        continue
      }
      atCellStart = byte == delimiter
      index += 1
    }
    return nil
  }
}
