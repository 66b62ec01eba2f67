import Foundation
import Testing

@testable import RecordKit

/// csv-spectrum (github.com/maxogden/csv-spectrum): every `csvs/NAME.csv` reads as its
/// `json/NAME.json` twin (an array of objects whose values are all strings), and is written
/// back byte for byte.
@Suite struct CSVConformanceTests {
  typealias Support = CSVTestSupport

  /// `<package root>/../shared/conformance/csv-spectrum`, found from this file's path.
  static let suiteFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/conformance/csv-spectrum")

  static let names = [
    "comma_in_quotes", "empty", "empty_crlf", "escaped_quotes", "json", "location_coordinates", "newlines",
    "newlines_crlf", "quotes_and_newlines", "simple", "simple_crlf", "utf8",
  ]

  /// `location_coordinates.json` is wrong upstream: one object rather than an array, and
  /// another phone number than the CSV's. This is what Python's `csv.DictReader` reads from
  /// the CSV (checked with Python 3.11): the file holds U+FFFD where a degree sign was.
  static let locationCoordinates = Support.Texts(
    header: ["Contact Phone Number", "Location Coordinates", "Cities", "Counties"],
    rows: [["2095257564", "37\u{FFFD}36'37.8\"N 121\u{FFFD}2'17.9\"W", "Modesto", "Stanislaus"]])

  static func contents(_ subfolder: String, _ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: suiteFolder.appendingPathComponent(subfolder).appendingPathComponent(name)))
  }

  @Test func theSuiteIsPresentAndComplete() {
    let folder = Self.suiteFolder.appendingPathComponent("csvs").path
    guard let found = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      Issue.record("csv-spectrum not found: looked in \(folder)")
      return
    }
    #expect(Set(found) == Set(Self.names.map { "\($0).csv" }), "\(folder) holds \(found.sorted())")
  }

  /// The twin's texts: each object's values in order, under the first object's keys.
  static func expectedTexts(_ name: String) throws -> Support.Texts {
    if name == "location_coordinates" { return locationCoordinates }
    guard case .array(let records) = try JSONValue.parse(bytes: try contents("json", "\(name).json")) else {
      throw CocoaError(.fileReadCorruptFile)
    }
    var texts = Support.Texts(header: [], rows: [])
    for case .object(let object) in records {
      if texts.header.isEmpty { texts.header = object.keys }
      #expect(object.keys == texts.header, "\(name).json: keys \(object.keys)")
      texts.rows.append(
        object.members.map { member in
          guard case .string(let text) = member.value else { return "not a string: \(member.value)" }
          return text
        })
    }
    return texts
  }

  @Test(arguments: names)
  func aFileReadsAsItsJSONTwinAndWritesBackByteForByte(_ name: String) throws {
    let path = Self.suiteFolder.appendingPathComponent("csvs/\(name).csv").path
    let bytes: [UInt8]
    do {
      bytes = try Self.contents("csvs", "\(name).csv")
    } catch {
      Issue.record("csv-spectrum file missing: \(path): \(error)")
      return
    }
    let table = try Support.read(bytes)
    var read = Support.texts(of: table, in: bytes)
    // Every value of the twins is a string: an absent cell is the empty string there.
    read.rows = read.rows.map { $0.map { $0 ?? "" } }
    #expect(read == (try Self.expectedTexts(name)), "\(path)")
    #expect(Support.writtenBack(table, bytes) == bytes, "\(path): cells copied back")
    // Written from the texts, each cell quoted where it was: the same bytes again, except
    // where an unquoted cell holds a quote (`37.8"N`), which the writer quotes.
    if name != "location_coordinates" {
      #expect(Support.reencoded(table, bytes, keepingQuotes: true) == bytes, "\(path): cells re-encoded")
    }
    let again = try Support.read(Support.reencoded(table, bytes))
    #expect(
      Support.texts(of: again, in: Support.reencoded(table, bytes)) == Support.texts(of: table, in: bytes))
  }
}
