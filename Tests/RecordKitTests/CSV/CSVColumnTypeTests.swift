import Testing

@testable import RecordKit

/// A column's type from its cells' texts, and the JSON value each cell holds.
@Suite struct CSVColumnTypeTests {
  @Test(
    arguments: [
      (["1", "-2", "0", "1234567890123456789012"], CSVColumnType.integer),
      (["-0"], .integer),
      (["02134"], .string),
      (["1", "02134"], .string),
      (["+1"], .string),
      (["1", "2.5"], .number),
      (["1e3"], .number),
      (["1E+5", "-0.0", "2e-3"], .number),
      (["1."], .string),
      ([".5"], .string),
      (["1e"], .string),
      (["-"], .string),
      (["0x1F"], .string),
      (["1_000"], .string),
      ([" 1"], .string),
      (["NaN"], .string),
      (["true", "false"], .bool),
      (["true", "1"], .string),
      (["TRUE"], .string),
      (["2024-01-05"], .string),
      (["1", ""], .string),
      ([""], .string),
      ([], .string),
    ] as [([String], CSVColumnType)])
  func aColumnIsTheNarrowestTypeEveryValueIsSpelledAs(_ texts: [String], _ type: CSVColumnType) {
    #expect(CSVColumnType(inferringFrom: texts) == type)
  }

  @Test func aTablesColumnIsTypedFromItsCellsThatHoldAValue() throws {
    let bytes = Array("n,zip,flag,x,empty\n1,02134,true,1.5,\n,\"12\",false,\"a\"\"b\",\n\"3\",,,,\n".utf8)
    let table = try CSVReader.read(bytes, tabSeparated: false)
    let types = bytes.withUnsafeBufferPointer { buffer in
      (0..<table.columnCount).map { CSVColumnType(ofColumn: $0, in: table, bytes: buffer) }
    }
    #expect(types == [.integer, .string, .bool, .string, .string])
  }

  @Test func tsvEscapesMakeAString() throws {
    let bytes = Array("n\n1\n\\t2\n".utf8)
    let table = try CSVReader.read(bytes, tabSeparated: true)
    #expect(bytes.withUnsafeBufferPointer { CSVColumnType(ofColumn: 0, in: table, bytes: $0) } == .string)
  }

  @Test(arguments: [
    (CSVColumnType.integer, "12" as String?, JSONValue.number("12") as JSONValue?),
    (.integer, nil, nil),
    (.integer, "", .string("")),
    (.integer, "1.5", .number("1.5")),
    (.integer, "x", .string("x")),
    (.number, "1e3", .number("1e3")),
    (.number, "02134", .string("02134")),
    (.bool, "true", .bool(true)),
    (.bool, "false", .bool(false)),
    (.bool, "yes", .string("yes")),
    (.string, "123", .string("123")),
    (.string, "true", .string("true")),
    (.string, "", .string("")),
    (.string, nil, nil),
  ])
  func aCellHoldsTheValueItsColumnsTypeReadsItsTextAs(
    _ type: CSVColumnType, _ text: String?, _ value: JSONValue?
  ) {
    #expect(type.value(ofText: text) == value)
  }

  @Test func anAbsentCellHoldsNoValueAndAQuotedEmptyOneTheEmptyString() throws {
    let bytes = Array("a,b\n,\"\"\n\"7\",x\n".utf8)
    let table = try CSVReader.read(bytes, tabSeparated: false)
    bytes.withUnsafeBufferPointer { buffer in
      #expect(CSVColumnType.integer.value(of: table.cell(row: 0, column: 0), in: table, bytes: buffer) == nil)
      #expect(
        CSVColumnType.string.value(of: table.cell(row: 0, column: 1), in: table, bytes: buffer) == .string("")
      )
      #expect(
        CSVColumnType.integer.value(of: table.cell(row: 1, column: 0), in: table, bytes: buffer)
          == .number("7"))
    }
  }

  @Test func aValuesCellReadsBackAsTheValue() throws {
    let values: [JSONValue] = [
      .number("-12"), .number("1.5e3"), .bool(true), .string("a,\"b\"\n"), .string(""),
    ]
    let types: [CSVColumnType] = [.integer, .number, .bool, .string, .string]
    var writer = CSVWriter(dialect: .csv)
    writer.appendHeader(["a", "b", "c", "d", "e"])
    writer.appendRow(values.compactMap { CSVWriter.Cell($0) })
    let bytes = writer.bytes
    let table = try CSVReader.read(bytes, tabSeparated: false)
    let read = bytes.withUnsafeBufferPointer { buffer in
      (0..<5).map { types[$0].value(of: table.cell(row: 0, column: $0), in: table, bytes: buffer) }
    }
    #expect(read == values)
  }
}
