import Testing

@testable import RecordKit

/// Every refusal of the CSV reader: its exact message and the position of the byte it
/// names (line, column in Unicode scalars, byte offset).
@Suite struct CSVSyntaxErrorTests {
  typealias Support = CSVTestSupport

  struct Case: CustomTestStringConvertible, Sendable {
    var bytes: [UInt8]
    var tabSeparated = false
    var message: String
    var line: Int
    var column: Int
    var offset: Int

    init(_ text: String, tsv: Bool = false, _ message: String, _ line: Int, _ column: Int, _ offset: Int) {
      self.init(Array(text.utf8), tsv: tsv, message, line, column, offset)
    }

    init(_ bytes: [UInt8], tsv: Bool = false, _ message: String, _ line: Int, _ column: Int, _ offset: Int) {
      self.bytes = bytes
      self.tabSeparated = tsv
      self.message = message
      self.line = line
      self.column = column
      self.offset = offset
    }

    var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }
  }

  static let cases: [Case] = [
    Case("a,b\n1,2,3\n", "row has 3 cells, the header has 2", 2, 5, 8),
    Case("a,b,c\n1,2\n", "row has 2 cells, the header has 3", 2, 1, 6),
    Case("a,b\n1\n", "row has 1 cell, the header has 2", 2, 1, 4),
    Case("a\n1,2,3,4\n", "row has 4 cells, the header has 1", 2, 3, 4),
    Case("a\n1;2,3\n", "row has 2 cells, the header has 1", 2, 5, 6),
    Case("a,b\nécole,東京,x\n", "row has 3 cells, the header has 2", 2, 10, 18),
    Case("a\tb\n1\n", tsv: true, "row has 1 cell, the header has 2", 2, 1, 4),
    Case("a\tb\n1\t\"2\t3\"\n", tsv: true, "row has 3 cells, the header has 2", 2, 6, 9),
    Case("a\n\"x\n", "quoted cell never closes: no closing '\"' before the end of the file", 2, 1, 2),
    Case("a,b\n1,\"x\"\"\n", "quoted cell never closes: no closing '\"' before the end of the file", 2, 3, 6),
    Case("a\r1\r\"x", "quoted cell never closes: no closing '\"' before the end of the file", 3, 1, 4),
    Case("\"a,b\n", "quoted cell never closes: no closing '\"' before the end of the file", 1, 1, 0),
    Case(
      "a,b\n\"x\"y,2\n", "expected ',' or a line break after a closing quote, found 'y'", 2, 4, 7),
    Case(
      "a;b\n\"x\" ;2\n", "expected ';' or a line break after a closing quote, found U+0020", 2, 4, 7),
    Case(
      "a,b\n\"x\"é,2\n", "expected ',' or a line break after a closing quote, found U+00E9 'é'", 2, 4, 7),
    Case(
      "a,\"b\"\"\"c\n", "expected ',' or a line break after a closing quote, found 'c'", 1, 8, 7),
    Case(
      "a,b\n1,\"x\"y,3\n", "expected ',' or a line break after a closing quote, found 'y'", 2, 6, 9),
    Case([0x61, 0x0A, 0x62, 0xFF, 0x0A], "invalid UTF-8 at byte offset 3", 2, 2, 3),
    Case([0x61, 0x0A, 0x31, 0x2C, 0x32, 0x0A, 0xC3], "invalid UTF-8 at byte offset 6", 3, 1, 6),
    Case([0xEF, 0xBB, 0xBF, 0xC3, 0x28], "invalid UTF-8 at byte offset 3", 1, 1, 3),
    Case([0xEF, 0xBB], "invalid UTF-8 at byte offset 0", 1, 1, 0),
    Case([0x61, 0x09, 0xED, 0xA0, 0x80], tsv: true, "invalid UTF-8 at byte offset 2", 1, 3, 2),
    Case("\na\n", "the header row is empty: the first line must name the columns", 1, 1, 0),
    Case("\r\n", "the header row is empty: the first line must name the columns", 1, 1, 0),
    Case("\u{FEFF}\n", "the header row is empty: the first line must name the columns", 1, 1, 3),
    Case("a,,b\n", "the header name of column 2 is empty", 1, 3, 2),
    Case("a,\"\"\n", "the header name of column 2 is empty", 1, 3, 2),
    Case(",a\n", "the header name of column 1 is empty", 1, 1, 0),
    Case("a,b,\n1,2,3\n", "the header name of column 3 is empty", 1, 5, 4),
    Case("aa,", "the header name of column 2 is empty", 1, 4, 3),
    Case("a\n1,", "row has 2 cells, the header has 1", 2, 3, 4),
    Case("\u{FEFF}\"\"", "the header name of column 1 is empty", 1, 1, 3),
    Case("a\t\t\n", tsv: true, "the header name of column 2 is empty", 1, 3, 2),
    Case("id,name,id\n", "the header name \"id\" of column 3 repeats column 1's", 1, 9, 8),
    Case("id,\"id\"\n", "the header name \"id\" of column 2 repeats column 1's", 1, 4, 3),
    Case("a\\tb\ta\tb\ta\tb\n", tsv: true, "the header name \"a\" of column 4 repeats column 2's", 1, 10, 9),
    // Names that are the same text in Unicode's eyes (NFD and NFC) would be one field.
    Case("e\u{301},\u{E9}\n", "the header name \"\u{E9}\" of column 2 repeats column 1's", 1, 4, 4),
  ]

  @Test(arguments: cases)
  func aFileThatIsNoTableIsRefusedWithWhereAndWhy(_ test: Case) {
    do {
      let table = try Support.read(test.bytes, tabSeparated: test.tabSeparated)
      Issue.record("read as \(Support.texts(of: table, in: test.bytes)), expected \"\(test.message)\"")
    } catch {
      #expect(error.message == test.message)
      #expect(error.position == JSONPosition(line: test.line, column: test.column, offset: test.offset))
      #expect(error.description == "\(test.line):\(test.column): \(test.message)")
    }
  }

  @Test func bytesThatAreNotUTF8AreNamedBeforeAnythingElseIsWrong() {
    #expect(throws: CSVSyntaxError(.invalidUTF8(offset: 9), at: JSONPosition(line: 3, column: 1, offset: 9)))
    {
      try Support.read([0x61, 0x0A, 0x22, 0x31, 0x22, 0x32, 0x2C, 0x33, 0x0A, 0xFF])
    }
  }

  @Test func aRowsSyntaxIsCheckedBeforeItsCellCount() {
    #expect(throws: CSVSyntaxError(.unclosedQuote, at: JSONPosition(line: 2, column: 5, offset: 8))) {
      try Support.read(Support.bytes("a,b\n1,2,\"3\n"))
    }
  }
}
