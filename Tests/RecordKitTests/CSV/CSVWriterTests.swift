import Testing

@testable import RecordKit

/// Writing cells, headers and rows: quotes only where they must be (or were), TSV
/// escapes, the dialect's delimiter and line ending, original bytes copied.
@Suite struct CSVWriterTests {
  static func written(_ text: String, _ dialect: CSVDialect = .csv, keepingQuotes: Bool = false) -> String {
    var writer = CSVWriter(dialect: dialect)
    writer.appendText(text, keepingQuotes: keepingQuotes)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  static let semicolons = CSVDialect(delimiter: .semicolon, escaping: .quotes)

  @Test(arguments: [
    ("plain", "plain"),
    ("", "\"\""),
    ("a,b", "\"a,b\""),
    ("a;b", "a;b"),
    ("he said \"hi\"", "\"he said \"\"hi\"\"\""),
    ("a\"b", "\"a\"\"b\""),
    ("line\nbreak", "\"line\nbreak\""),
    ("cr\rhere", "\"cr\rhere\""),
    ("crlf\r\n", "\"crlf\r\n\""),
    (" spaced ", " spaced "),
    ("\\t", "\\t"),
    ("tab\there", "tab\there"),
    ("école 東京 👍🏽", "école 東京 👍🏽"),
    ("\u{FEFF}x", "\"\u{FEFF}x\""),
    ("x\u{FEFF}", "x\u{FEFF}"),
  ])
  func aCSVCellIsQuotedOnlyWhereItMustBe(_ text: String, _ expected: String) {
    #expect(Self.written(text) == expected)
    #expect(CSVWriter.needsQuotes(text, delimiter: UInt8(ascii: ",")) == expected.hasPrefix("\""))
  }

  @Test func theDelimiterThatNeedsQuotesIsTheDialects() {
    #expect(Self.written("a;b", Self.semicolons) == "\"a;b\"")
    #expect(Self.written("a,b", Self.semicolons) == "a,b")
  }

  @Test func aCellThatWasQuotedKeepsItsQuotes() {
    #expect(Self.written("abc", keepingQuotes: true) == "\"abc\"")
    #expect(Self.written("a\"c", keepingQuotes: true) == "\"a\"\"c\"")
    #expect(Self.written("abc", .tsv, keepingQuotes: true) == "abc")
  }

  @Test(arguments: [
    ("plain", "plain"),
    ("a\tb", "a\\tb"),
    ("a\nb\rc\r\n", "a\\nb\\rc\\r\\n"),
    ("back\\slash", "back\\\\slash"),
    ("\\t", "\\\\t"),
    ("\"quoted\",", "\"quoted\","),
    ("", ""),
  ])
  func aTSVCellEscapesTabsLineBreaksAndBackslashes(_ text: String, _ expected: String) throws {
    #expect(Self.written(text, .tsv) == expected)
    let bytes = Array("h\n\(expected)\n".utf8)
    let back = try CSVReader.read(bytes, tabSeparated: true)
    #expect(
      text.isEmpty
        ? back.rowCount == 0 : bytes.withUnsafeBufferPointer { back.text(row: 0, column: 0, in: $0) } == text)
  }

  @Test func aHeaderAndRowsUseTheDialectsDelimiterAndLineEnding() {
    var dialect = Self.semicolons
    dialect.lineEnding = .crlf
    var writer = CSVWriter(dialect: dialect)
    writer.appendHeader(["id", "note; more"])
    writer.appendRow([.text("1"), .text("x;y", keepingQuotes: false)])
    writer.appendRow([.absent, .text("")], endingLine: false)
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "id;\"note; more\"\r\n1;\"x;y\"\r\n;\"\"")
  }

  @Test func theFirstHeaderNameIsQuotedWhenItHoldsEitherDelimiter() throws {
    for dialect in [CSVDialect.csv, Self.semicolons] {
      var writer = CSVWriter(dialect: dialect)
      writer.appendHeader(["a,b;c", "d,e;f"])
      let table = try CSVReader.read(writer.bytes, tabSeparated: false)
      #expect(table.dialect.delimiter == dialect.delimiter)
      #expect(table.header == ["a,b;c", "d,e;f"])
    }
    var writer = CSVWriter(dialect: .csv)
    writer.appendHeader(["a", "b;c"])
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "a,b;c\n")
  }

  @Test func originalCellsAreCopiedByteForByte() {
    let source = Array("\"a\"\"b\",x\"y".utf8)
    var writer = CSVWriter(dialect: CSVDialect(delimiter: .comma, escaping: .quotes, lineEnding: .cr))
    source.withUnsafeBufferPointer { buffer in
      writer.appendRow([.original(7..<10), .text("new"), .original(0..<6)], source: buffer)
    }
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "x\"y,new,\"a\"\"b\"\r")
  }

  @Test func aRowOfOneAbsentCellIsWrittenAsTheEmptyStringNotAnEmptyLine() throws {
    var writer = CSVWriter(dialect: .csv)
    writer.appendHeader(["a"])
    writer.appendRow([.absent])
    writer.appendRow([.text("")])
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "a\n\"\"\n\"\"\n")
    var tabs = CSVWriter(dialect: .tsv)
    tabs.appendRow([.absent, .absent])
    tabs.appendRow([.absent])
    #expect(String(decoding: tabs.bytes, as: UTF8.self) == "\t\n\n")
  }

  @Test(arguments: [
    (JSONValue.null, CSVWriter.Cell.absent),
    (.bool(true), .text("true")),
    (.bool(false), .text("false")),
    (.number("1.50"), .text("1.50")),
    (.number("-0"), .text("-0")),
    (.string(""), .text("")),
    (.string("02134"), .text("02134")),
  ])
  func aScalarValueIsACellsText(_ value: JSONValue, _ cell: CSVWriter.Cell) {
    #expect(CSVWriter.Cell(value) == cell)
  }

  @Test func listsAndObjectsDoNotFitACell() {
    #expect(CSVWriter.Cell(.array([.number("1")])) == nil)
    #expect(CSVWriter.Cell(.object(JSONObject(["a": .null]))) == nil)
    #expect(CSVWriter.Cell(.string("x"), keepingQuotes: true) == .text("x", keepingQuotes: true))
  }
}
