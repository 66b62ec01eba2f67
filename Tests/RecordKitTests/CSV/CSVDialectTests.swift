import Testing

@testable import RecordKit

/// What a file's dialect is read as: the delimiter from the header row, the line ending
/// that ends it, the byte order mark and the final line break.
@Suite struct CSVDialectTests {
  @Test(arguments: [
    ("a,b\n", CSVDialect.Delimiter.comma),
    ("a;b\n", .semicolon),
    ("a;b,c\n", .semicolon),
    ("a,b;c\n", .comma),
    ("a\n1;2\n", .comma),
    ("a b c\n", .comma),
    ("", .comma),
    ("\"x,y\";z\n", .semicolon),
    ("\"x;y\",z\n", .comma),
    ("\"x\"\",;\";z,w\n", .semicolon),
    ("a\"b;c\",d\n", .semicolon),
    ("\u{FEFF};a\n", .semicolon),
    ("\"never closes, ;\n", .comma),
  ])
  func aCSVDelimiterIsTheFirstCommaOrSemicolonOutsideQuotesInTheHeader(
    _ text: String, _ delimiter: CSVDialect.Delimiter
  ) {
    let dialect = CSVDialect(detectingIn: Array(text.utf8), tabSeparated: false)
    #expect(dialect.delimiter == delimiter)
    #expect(dialect.escaping == .quotes)
  }

  @Test func aTSVIsTabsAndBackslashes() {
    let dialect = CSVDialect(detectingIn: Array("a,b;c\n".utf8), tabSeparated: true)
    #expect(dialect == CSVDialect(delimiter: .tab, escaping: .backslashes))
    #expect(dialect.isTabSeparated)
    #expect(CSVDialect.tsv == dialect)
  }

  @Test(arguments: [
    ("a,b\n1,2\r\n", CSVDialect.LineEnding.lf),
    ("a,b\r\n1,2\n", .crlf),
    ("a,b\r1,2\n", .cr),
    ("a,b", .lf),
    ("", .lf),
    ("\"a\r\nb\",c\n", .lf),
    ("\"a\nb\";c\r\n", .crlf),
    ("\"a\nb", .lf),
    ("x,\"a\nb\"\r", .cr),
    ("a,b\r", .cr),
  ])
  func theLineEndingIsTheOneAfterTheHeaderRow(_ text: String, _ ending: CSVDialect.LineEnding) {
    #expect(CSVDialect(detectingIn: Array(text.utf8), tabSeparated: false).lineEnding == ending)
  }

  @Test func aTSVHeaderEndsAtItsFirstLineBreakQuotesOrNot() {
    #expect(CSVDialect(detectingIn: Array("\"a\r\nb\"\n".utf8), tabSeparated: true).lineEnding == .crlf)
  }

  @Test(arguments: [
    ("a\n", false, true),
    ("a", false, false),
    ("a\n1\r", false, true),
    ("a\n\"1\n\"", false, false),
    ("\u{FEFF}a\r\n", true, true),
    ("\u{FEFF}", true, true),
    ("", false, true),
    ("\u{FEFF}\u{FEFF}a", true, false),
  ])
  func theByteOrderMarkAndTheFinalLineBreakAreKept(_ text: String, _ mark: Bool, _ finalBreak: Bool) {
    let dialect = CSVDialect(detectingIn: Array(text.utf8), tabSeparated: false)
    #expect(dialect.hasByteOrderMark == mark)
    #expect(dialect.endsWithLineBreak == finalBreak)
  }

  @Test func theReadTableHasTheDetectedDialect() throws {
    let table = try CSVReader.read(Array("\u{FEFF}a;b\r\n1;2".utf8), tabSeparated: false)
    #expect(
      table.dialect
        == CSVDialect(
          delimiter: .semicolon, escaping: .quotes, lineEnding: .crlf, hasByteOrderMark: true,
          endsWithLineBreak: false))
  }
}
