import Foundation
import Testing

@testable import RecordKit

/// Python's csv module as the model: random tables written by Python read here as the
/// same table, and the tables written here read in Python as the same table.
///
/// One `python3` process does all of a run's work (a few hundred tables each way), so the
/// test takes about a second. python3 must be installed: without it the test fails.
@Suite struct CSVPythonModelTests {
  typealias Support = CSVTestSupport

  /// A table and the dialect Python writes it in (`csv.writer`'s arguments).
  struct Case: Codable {
    var delimiter: String
    var lineterminator: String
    /// `csv.QUOTE_MINIMAL` (0) or `csv.QUOTE_ALL` (1).
    var quoting: Int
    /// The header first.
    var rows: [[String]]
  }

  struct Request: Codable {
    var write: [Case]
    /// Bytes written here, base64, for `csv.reader` with `delimiter`.
    var read: [Reading]
  }

  struct Reading: Codable {
    var delimiter: String
    var data: String
  }

  struct Response: Codable {
    var written: [String]
    var read: [[[String]]]
  }

  static let script = #"""
    import base64, csv, io, json, sys
    request = json.load(sys.stdin)
    written = []
    for case in request["write"]:
        out = io.StringIO(newline="")
        writer = csv.writer(out, delimiter=case["delimiter"], lineterminator=case["lineterminator"],
                            quoting=case["quoting"])
        writer.writerows(case["rows"])
        written.append(base64.b64encode(out.getvalue().encode("utf-8")).decode("ascii"))
    read = []
    for case in request["read"]:
        text = base64.b64decode(case["data"]).decode("utf-8")
        read.append(list(csv.reader(io.StringIO(text, newline=""), delimiter=case["delimiter"], strict=True)))
    json.dump({"written": written, "read": read}, sys.stdout)
    """#

  /// Pieces a cell is made of: delimiters, quotes, every line break, non-ASCII text.
  static let pieces = [
    "a", "b", "x y", " ", "\"", ",", ";", "\r", "\n", "\r\n", "é", "東京", "👍🏽", "\t", "\\", "''", "\"\"",
  ]

  static func randomCase(_ generator: inout SplitMix64) -> Case {
    let columns = 1 + generator.int(4)
    // A header of one name has no delimiter to tell `;` by, so such a file reads as `,`.
    let delimiter = columns == 1 ? "," : [",", ";"].pick(using: &generator)
    let terminator = ["\r\n", "\n"].pick(using: &generator)
    let quoting = generator.int(2)
    // Python 3.11's writer leaves a lone CR unquoted when the line terminator is LF and it
    // quotes minimally, and then its own reader splits the cell: no such cells there.
    let pieces = terminator == "\n" && quoting == 0 ? Self.pieces.filter { !$0.contains("\r") } : Self.pieces
    // The first name holds no delimiter: Python does not quote `a,b` in a file of `;`,
    // and the delimiter is read from the header.
    var header = ["id"]
    for column in 1..<columns {
      header.append(randomCell(&generator, pieces: pieces, minimum: 1) + "\(column)")
    }
    var rows = [header]
    for _ in 0..<generator.int(8) {
      rows.append((0..<columns).map { _ in randomCell(&generator, pieces: pieces) })
    }
    return Case(delimiter: delimiter, lineterminator: terminator, quoting: quoting, rows: rows)
  }

  static func randomCell(_ generator: inout SplitMix64, pieces: [String], minimum: Int = 0) -> String {
    (0..<minimum + generator.int(4)).map { _ in pieces.pick(using: &generator) }.joined()
  }

  static func python(_ request: Request) throws -> Response {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: try JSONEncoder().encode(request))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      Issue.record(
        "python3 failed (\(process.terminationStatus)): \(String(decoding: message, as: UTF8.self))")
      throw CocoaError(.executableLoad)
    }
    return try JSONDecoder().decode(Response.self, from: data)
  }

  /// The table as this writer writes it in the case's dialect (cells quoted at random
  /// where Python quotes all).
  static func written(_ test: Case, _ generator: inout SplitMix64) -> [UInt8] {
    let dialect = CSVDialect(
      delimiter: test.delimiter == ";" ? .semicolon : .comma, escaping: .quotes,
      lineEnding: test.lineterminator == "\n" ? .lf : .crlf)
    var writer = CSVWriter(dialect: dialect)
    writer.appendHeader(test.rows[0])
    for row in test.rows.dropFirst() {
      writer.appendRow(row.map { .text($0, keepingQuotes: test.quoting == 1 && generator.int(2) == 0) })
    }
    return writer.bytes
  }

  @Test func tablesWrittenByPythonReadHereAndTablesWrittenHereReadInPython() throws {
    var generator = SplitMix64(seed: 0xC5F_2026)
    let cases = (0..<400).map { _ in Self.randomCase(&generator) }
    let ours = cases.map { Self.written($0, &generator) }
    let response = try Self.python(
      Request(
        write: cases,
        read: zip(cases, ours).map { Reading(delimiter: $0.delimiter, data: Data($1).base64EncodedString()) })
    )
    try #require(response.written.count == cases.count && response.read.count == cases.count)
    for (index, test) in cases.enumerated() {
      let bytes = Array(Data(base64Encoded: response.written[index]) ?? Data())
      let expected = Support.Texts(header: test.rows[0], rows: test.rows.dropFirst().map { $0 })
      do {
        let table = try Support.read(bytes)
        var read = Support.texts(of: table, in: bytes)
        read.rows = read.rows.map { $0.map { $0 ?? "" } }
        #expect(
          read == expected,
          "case \(index): Python wrote \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        #expect(table.dialect.delimiter.byte == UInt8(ascii: test.delimiter == ";" ? ";" : ","))
        #expect(table.dialect.lineEnding == (test.lineterminator == "\n" ? .lf : .crlf))
        #expect(Support.writtenBack(table, bytes) == bytes)
      } catch {
        Issue.record("case \(index): \(error) in \(String(decoding: bytes, as: UTF8.self).debugDescription)")
      }
      #expect(
        response.read[index] == test.rows,
        "case \(index): Python read \(String(decoding: ours[index], as: UTF8.self).debugDescription)")
      #expect(try Support.texts(ours[index]).header == test.rows[0])
    }
  }
}
