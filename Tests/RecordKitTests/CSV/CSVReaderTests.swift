import Testing

@testable import RecordKit

/// Reading CSV and TSV bytes: cells and their quotes, line endings, empty lines, the byte
/// order mark, and where every row, gap and cell lies.
@Suite struct CSVReaderTests {
  typealias Support = CSVTestSupport

  static func texts(_ text: String, tabSeparated: Bool = false) throws -> Support.Texts {
    try Support.texts(Support.bytes(text), tabSeparated: tabSeparated)
  }

  @Test(
    arguments: [
      ("a,b,c\n1,2,3\n", ["a", "b", "c"], [["1", "2", "3"]]),
      ("a,b\n\"x, y\",\"he said \"\"hi\"\"\"\n", ["a", "b"], [["x, y", "he said \"hi\""]]),
      ("a\n\"1\r\n2\"\n\"3\n\r4\"\n", ["a"], [["1\r\n2"], ["3\n\r4"]]),
      ("a,b\nx\"y,z\"\"\n", ["a", "b"], [["x\"y", "z\"\""]]),
      ("a,b\n \"x\",\"y\"\n", ["a", "b"], [[" \"x\"", "y"]]),
      ("a,b,c\n,\"\",x\n", ["a", "b", "c"], [[nil, "", "x"]]),
      ("a,b\n1,\n", ["a", "b"], [["1", nil]]),
      ("a,b\n,\n", ["a", "b"], [[nil, nil]]),
      ("a\n\"\"\n", ["a"], [[""]]),
      ("\"a,b\",\"\"\"c\"\"\"\n1,2\n", ["a,b", "\"c\""], [["1", "2"]]),
      ("name,city\nécole,東京 👍🏽\n", ["name", "city"], [["école", "東京 👍🏽"]]),
      ("a;b,c\n1;2,3\n", ["a", "b,c"], [["1", "2,3"]]),
      ("\"x;y\",z;w\n1,2;3\n", ["x;y", "z;w"], [["1", "2;3"]]),
      ("\"a,b\";c\n1;\"2;3\"\n", ["a,b", "c"], [["1", "2;3"]]),
    ] as [(String, [String], [[String?]])])
  func aCSVFileReadsAsItsCells(_ text: String, _ header: [String], _ rows: [[String?]]) throws {
    #expect(try Self.texts(text) == Support.Texts(header: header, rows: rows))
  }

  @Test(
    arguments: [
      ("a\tb\n1\t2\n", ["a", "b"], [["1", "2"]]),
      ("a\tb\n1\\t2\t\\n\\r\\\\\n", ["a", "b"], [["1\t2", "\n\r\\"]]),
      ("a\tb\n\\x\\\t\\\\t\n", ["a", "b"], [["\\x\\", "\\t"]]),
      ("a\tb\n\"x\t\"y\"\"\n", ["a", "b"], [["\"x", "\"y\"\""]]),
      ("a\\tb\tc,d\n\t\n", ["a\tb", "c,d"], [[nil, nil]]),
    ] as [(String, [String], [[String?]])])
  func aTSVFileReadsWithEscapesAndNoQuotes(_ text: String, _ header: [String], _ rows: [[String?]]) throws {
    #expect(try Self.texts(text, tabSeparated: true) == Support.Texts(header: header, rows: rows))
  }

  @Test func rowsAndCellsKnowTheirBytes() throws {
    let bytes = Support.bytes("a,b\r\n1,\"x\"\r\n\r\n,22")
    let table = try Support.read(bytes)
    #expect(table.headerSpan == CSVRowSpan(start: 0, contentEnd: 3, end: 5))
    #expect(table.rowCount == 2)
    #expect(table.rowSpan(0) == CSVRowSpan(start: 5, contentEnd: 10, end: 12))
    #expect(table.rowSpan(1) == CSVRowSpan(start: 14, contentEnd: 17, end: 17))
    #expect(table.gap(beforeRow: 0) == 5..<5)
    #expect(table.gap(beforeRow: 1) == 12..<14)
    #expect(table.trailingGap == 17..<17)
    #expect(table.headerCell(1) == CSVCell(range: 2..<3, isQuoted: false))
    #expect(table.cell(row: 0, column: 0) == CSVCell(range: 5..<6, isQuoted: false))
    #expect(table.cell(row: 0, column: 1) == CSVCell(range: 7..<10, isQuoted: true))
    #expect(table.cell(row: 0, column: 1).contentRange == 8..<9)
    #expect(table.cell(row: 1, column: 0) == CSVCell(range: 14..<14, isQuoted: false))
    #expect(table.cell(row: 1, column: 0).isAbsent)
    #expect(table.cell(row: 1, column: 1) == CSVCell(range: 15..<17, isQuoted: false))
  }

  @Test(arguments: [
    "a,b\n1,2\n", "a,b\r\n1,2\r\n", "a,b\r1,2\r", "a,b\n1,2", "a,b\r\n1,2\n3,4\r5,6",
    "\u{FEFF}a,b\n1,2\n", "a\n\n1\n\r\n\n2\n\n", "a\r\r\n\r1\n\n", "a,b\n\"1\n\n\",2\n\n\n",
    "", "\u{FEFF}", "a", "a\n", "a\n\n\n", "a\tb\n\\t\t\\\\\n\n",
  ])
  func theSpansTileTheFile(_ text: String) throws {
    let bytes = Support.bytes(text)
    let table = try Support.read(bytes, tabSeparated: text.contains("\t"))
    #expect(Support.writtenBack(table, bytes) == bytes)
  }

  @Test func emptyLinesAreNoRowsAndTheirBytesAreTheGapBeforeTheNextRow() throws {
    let bytes = Support.bytes("a\n\n1\n\r\n\n2\n\n")
    let table = try Support.read(bytes)
    #expect(Support.texts(of: table, in: bytes).rows == [["1"], ["2"]])
    #expect(bytes[table.gap(beforeRow: 0)] == [0x0A])
    #expect(bytes[table.gap(beforeRow: 1)] == [0x0D, 0x0A, 0x0A])
    #expect(bytes[table.trailingGap] == [0x0A])
  }

  @Test func lineEndingsMayBeLFCRLFOrALoneCRInOneFile() throws {
    let texts = try Self.texts("a,b\r1,2\r\n3,4\n5,6\r\r7,8")
    #expect(texts.rows == [["1", "2"], ["3", "4"], ["5", "6"], ["7", "8"]])
  }

  @Test func aByteOrderMarkIsNotPartOfTheFirstName() throws {
    let bytes = Support.bytes("\u{FEFF}id,name\n1,x\n")
    let table = try Support.read(bytes)
    #expect(table.header == ["id", "name"])
    #expect(table.prefix == 0..<3)
    #expect(table.headerSpan?.start == 3)
    #expect(table.dialect.hasByteOrderMark)
  }

  @Test func aLastRowWithoutALineBreakEndsWithItsLastCell() throws {
    let bytes = Support.bytes("a\n\"1\"")
    let table = try Support.read(bytes)
    #expect(table.rowSpan(0) == CSVRowSpan(start: 2, contentEnd: 5, end: 5))
    #expect(table.rowSpan(0).lineBreak.isEmpty)
    #expect(!table.dialect.endsWithLineBreak)
  }

  @Test(arguments: ["", "\u{FEFF}"])
  func aFileOfNoBytesIsATableWithNoHeader(_ text: String) throws {
    let bytes = Support.bytes(text)
    let table = try Support.read(bytes)
    #expect(table.header.isEmpty)
    #expect(table.rowCount == 0)
    #expect(table.headerSpan == nil)
    #expect(table.prefix == 0..<bytes.count)
    #expect(table.trailingGap == bytes.count..<bytes.count)
    #expect(table.dialect.hasByteOrderMark == !bytes.isEmpty)
  }

  @Test func aHeaderAloneIsATableWithNoRows() throws {
    let table = try Support.read(Support.bytes("a,b\n\n"))
    #expect(table.header == ["a", "b"])
    #expect(table.rowCount == 0)
    #expect(table.trailingGap == 4..<5)
  }

  @Test func headerNamesAreDecodedLikeCells() throws {
    #expect(try Self.texts("\"a\"\"b\",\"c\nd\"\n").header == ["a\"b", "c\nd"])
    #expect(try Self.texts("a\\tb\t\\x\n", tabSeparated: true).header == ["a\tb", "\\x"])
  }

  @Test func aMillionCellsReadWithinTheirSize() throws {
    var text = "id,name,note\n"
    for index in 0..<100_000 { text += "\(index),name \(index),\"a \"\"quoted\"\", note\"\n" }
    let bytes = Support.bytes(text)
    let table = try Support.read(bytes)
    #expect(table.rowCount == 100_000)
    #expect(table.cellEnds.count == 300_003)
    #expect(table.cellEnds.capacity <= 2 * 300_003)
    #expect(
      bytes.withUnsafeBufferPointer { table.text(row: 99_999, column: 2, in: $0) } == "a \"quoted\", note")
  }
}
