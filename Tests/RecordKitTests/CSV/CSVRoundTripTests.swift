import Testing

@testable import RecordKit

/// Properties over random files and tables: a file that reads writes back byte for byte
/// from its spans, and written afresh from its texts reads back as the same texts; a table
/// written in any dialect reads back as itself.
@Suite struct CSVRoundTripTests {
  typealias Support = CSVTestSupport

  /// Raw cell spellings, well formed or not: quotes, escapes, delimiters of either format.
  static let rawCells = [
    "a", "", "1", "\"q\"", "\"a\"\"b\"", "\"x\ny\"", "\"\r\n\"", "\"\"", "a\"b", "\\t", "\\", "\\\\n", "é東京",
    "👍🏽", "\t", ";", ",", "\"", "\"a\"b", " \"s\" ", "\u{FEFF}",
  ]
  static let lineBreaks = ["\n", "\r\n", "\r"]

  /// A file built from raw cells in rows of mostly equal length, with empty lines, any line
  /// breaks, a byte order mark or not, a final line break or not.
  static func randomFile(_ generator: inout SplitMix64, delimiter: String) -> [UInt8] {
    var text = generator.int(4) == 0 ? "\u{FEFF}" : ""
    let columns = 1 + generator.int(4)
    let rows = generator.int(6)
    for row in 0...rows {
      if row > 0, generator.int(5) == 0 { text += lineBreaks.pick(using: &generator) }
      let count = generator.int(12) == 0 ? 1 + generator.int(5) : columns
      text += (0..<count).map { _ in rawCells.pick(using: &generator) }.joined(separator: delimiter)
      if row < rows || generator.int(2) == 0 { text += lineBreaks.pick(using: &generator) }
    }
    return Array(text.utf8)
  }

  @Test(arguments: [",", ";", "\t"])
  func aFileThatReadsWritesBackByteForByteAndAfreshAsTheSameTexts(_ delimiter: String) throws {
    var generator = SplitMix64(seed: 0xC5F + UInt64(delimiter.utf8.first ?? 0))
    let tabSeparated = delimiter == "\t"
    var readCount = 0
    for _ in 0..<3000 {
      let bytes = Self.randomFile(&generator, delimiter: delimiter)
      let table: CSVTable
      do {
        table = try Support.read(bytes, tabSeparated: tabSeparated)
      } catch {
        #expect(error.line >= 1 && error.column >= 1 && error.offset <= bytes.count)
        continue
      }
      readCount += 1
      let shown = String(decoding: bytes, as: UTF8.self).debugDescription
      let texts = Support.texts(of: table, in: bytes)
      #expect(Support.writtenBack(table, bytes) == bytes, "\(shown)")
      for keepingQuotes in [false, true] {
        let fresh = Support.reencoded(table, bytes, keepingQuotes: keepingQuotes)
        do {
          let again = try Support.read(fresh, tabSeparated: tabSeparated)
          #expect(Support.texts(of: again, in: fresh) == texts, "\(shown) afresh: \(fresh)")
          #expect(again.dialect == table.dialect, "\(shown)")
        } catch {
          Issue.record(
            "\(shown) written afresh as \(String(decoding: fresh, as: UTF8.self).debugDescription): \(error)")
        }
      }
    }
    #expect(readCount > 600, "only \(readCount) of 3000 random files read")
  }

  static let textPieces = [
    "a", "", "\"", ",", ";", "\t", "\\", "\\t", "\r", "\n", "\r\n", "é", "東京", "👍🏽", " ",
  ]

  static func randomDialect(_ generator: inout SplitMix64) -> CSVDialect {
    let delimiter = CSVDialect.Delimiter.allCases.pick(using: &generator)
    return CSVDialect(
      delimiter: delimiter, escaping: delimiter == .tab ? .backslashes : .quotes,
      lineEnding: CSVDialect.LineEnding.allCases.pick(using: &generator),
      hasByteOrderMark: generator.int(2) == 0,
      endsWithLineBreak: generator.int(3) > 0)
  }

  @Test func aTableWrittenInAnyDialectReadsBackAsItself() throws {
    var generator = SplitMix64(seed: 2026)
    for _ in 0..<2000 {
      var dialect = Self.randomDialect(&generator)
      // One column has no delimiter in its header to tell `;` by.
      let columns = 1 + generator.int(4)
      if columns == 1, dialect.delimiter == .semicolon { dialect.delimiter = .comma }
      let header = (0..<columns).map { column in
        (0..<generator.int(3)).map { _ in Self.textPieces.pick(using: &generator) }.joined() + "h\(column)"
      }
      let rows = (0..<generator.int(6)).map { _ in
        (0..<columns).map { _ -> String? in
          if generator.int(6) == 0 { return nil }
          return (0..<generator.int(4)).map { _ in Self.textPieces.pick(using: &generator) }.joined()
        }
      }
      var writer = CSVWriter(dialect: dialect)
      if dialect.hasByteOrderMark { writer.append(CSVDialect.byteOrderMark) }
      writer.appendHeader(header, endingLine: !rows.isEmpty || dialect.endsWithLineBreak)
      for (index, row) in rows.enumerated() {
        writer.appendRow(
          row.map { $0.map { .text($0, keepingQuotes: generator.int(4) == 0) } ?? .absent },
          endingLine: index < rows.count - 1 || dialect.endsWithLineBreak)
      }
      let bytes = writer.bytes
      let shown = String(decoding: bytes, as: UTF8.self).debugDescription
      let table = try Support.read(bytes, tabSeparated: dialect.isTabSeparated)
      // What cannot be told apart: a `.tsv` empty string is absent, and a row of one
      // absent `.csv` cell is written as the empty string.
      let expected = rows.map { row in
        row.map { text -> String? in
          if dialect.isTabSeparated, text == "" { return nil }
          if !dialect.isTabSeparated, columns == 1, text == nil { return "" }
          return text
        }
      }
      // A `.tsv` row of one empty cell is an empty line: no row.
      let kept = dialect.isTabSeparated && columns == 1 ? expected.filter { $0 != [nil] } : expected
      #expect(Support.texts(of: table, in: bytes) == Support.Texts(header: header, rows: kept), "\(shown)")
      // A header that ends the file has no line ending to tell; a `.tsv` row lost as an
      // empty line leaves the line break before it at the end.
      var expectedDialect = dialect
      if rows.isEmpty, !dialect.endsWithLineBreak { expectedDialect.lineEnding = .lf }
      if kept.count < rows.count, expected.last == [nil] { expectedDialect.endsWithLineBreak = true }
      #expect(table.dialect == expectedDialect, "\(shown)")
    }
  }
}
