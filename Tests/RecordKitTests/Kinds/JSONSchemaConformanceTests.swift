import Foundation
import Testing

@testable import RecordKit

/// The official JSON Schema test suite (draft 2020-12), group by group as `expected.tsv`
/// and `expected-ecmascript-regex.tsv` (ECMA-262 patterns) say: `validate` groups must
/// agree with the suite on every test, `refuse` groups must be refused naming the
/// unsupported keyword or form and its JSON pointer.
@Suite struct JSONSchemaConformanceTests {
  /// `<package root>/../shared/conformance/JSON-Schema-Test-Suite`, found from this file's path.
  static let suiteFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/conformance/JSON-Schema-Test-Suite")

  /// One line of a table.
  struct Expectation: Sendable, CustomTestStringConvertible {
    var file: String
    var group: Int
    var refuses: Bool
    var why: String
    var testDescription: String { "\(file) #\(group)" }
  }

  /// The lines of `table` beside the suite; none when it is missing (a test says so).
  static func expectations(in table: String) -> [Expectation] {
    let url = suiteFolder.appendingPathComponent(table)
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count == 4, let group = Int(columns[1]) else { return nil }
      return Expectation(file: columns[0], group: group, refuses: columns[2] == "refuse", why: columns[3])
    }
  }

  static let keywords = expectations(in: "expected.tsv")
  static let patterns = expectations(in: "expected-ecmascript-regex.tsv")
  static let expectations = keywords + patterns

  static func group(_ expectation: Expectation) throws -> JSONObject? {
    let bytes = Array(try Data(contentsOf: suiteFolder.appendingPathComponent(expectation.file)))
    guard case .array(let groups) = try JSONValue.parse(bytes: bytes),
      groups.indices.contains(expectation.group),
      case .object(let group) = groups[expectation.group]
    else { return nil }
    return group
  }

  /// The error reading `value` as a schema gives, or `nil` when it reads.
  static func refusal(of value: JSONValue) -> JSONSchemaError? {
    do {
      _ = try JSONSchema(reading: value)
      return nil
    } catch {
      return error
    }
  }

  @Test func suiteIsPresentWithItsTables() {
    guard !Self.keywords.isEmpty, !Self.patterns.isEmpty else {
      Issue.record("JSON-Schema-Test-Suite not found: looked for \(Self.suiteFolder.path)/expected*.tsv")
      return
    }
    #expect(Self.keywords.count == 367)
    #expect(Self.keywords.filter(\.refuses).count == 279)
    #expect(Self.keywords.filter { !$0.refuses }.count == 88)
    #expect(Self.patterns.count == 20)
    #expect(Self.patterns.filter(\.refuses).count == 5)
    #expect(Self.patterns.filter { !$0.refuses }.count == 15)
  }

  static func testCount(of expectations: [Expectation]) throws -> Int {
    var count = 0
    for expectation in expectations where !expectation.refuses {
      guard case .array(let tests)? = try group(expectation)?["tests"] else { continue }
      count += tests.count
    }
    return count
  }

  @Test func validateGroupsHoldFourHundredNinetyAndFiftySevenTests() throws {
    #expect(try Self.testCount(of: Self.keywords) == 490)
    #expect(try Self.testCount(of: Self.patterns) == 57)
  }

  @Test(arguments: expectations.filter { !$0.refuses })
  func supportedSchemaAgreesWithTheSuiteOnEveryTest(_ expectation: Expectation) throws {
    let group = try #require(try Self.group(expectation))
    let schema = try JSONSchema(reading: try #require(group["schema"]))
    guard case .array(let tests)? = group["tests"] else {
      Issue.record("no tests in \(expectation.testDescription)")
      return
    }
    for case .object(let test) in tests {
      let data = try #require(test["data"])
      let valid = test["valid"] == .bool(true)
      #expect(
        schema.admits(data) == valid,
        "\(test["description"]?.compactText ?? ""): \(data.compactText) \(schema.violations(of: data))")
      // The check of a record's canonical text, as a file opens, gives the same answers.
      let text = CanonicalJSON.text(of: data)
      #expect(
        text.withUnsafeBufferPointer { schema.admits(canonical: $0, 0..<$0.count) } == valid,
        "from its text: \(test["description"]?.compactText ?? ""): \(data.compactText)")
    }
  }

  @Test(arguments: expectations.filter(\.refuses))
  func unsupportedSchemaIsRefusedWithItsPointer(_ expectation: Expectation) throws {
    let group = try #require(try Self.group(expectation))
    let schemaValue = try #require(group["schema"])
    let parts = expectation.why.split(separator: ": ", maxSplits: 1).map(String.init)
    try #require(parts.count == 2)
    guard let error = Self.refusal(of: schemaValue) else {
      Issue.record("read without error; expected \(expectation.why)")
      return
    }
    #expect(error.pointer.description == parts[0], "\(error)")
    #expect(error.message.contains(parts[1]), "\(error)")
  }
}
