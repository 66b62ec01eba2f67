import Foundation
import Testing

/// A schema may come from anyone: no `pattern` and value can make recsh hang. Each run of
/// the binary goes through `timeout`, so a hang fails the test (status 124) instead of
/// stalling the suite.
@Suite struct PatternBoundTests {
  /// The classic catastrophic patterns, a value each pattern admits (for the file to open),
  /// a 10,000-character hostile value, and what `set` must answer.
  static let cases: [(pattern: String, good: String, hostile: String, costly: Bool)] = [
    ("^(a+)+$", "a", String(repeating: "a", count: 10_000) + "!", true),
    ("^(a|aa)+$", "a", String(repeating: "a", count: 10_000) + "!", true),
    ("^(a|a?)+$", "a", String(repeating: "a", count: 10_000) + "!", true),
    ("(x+x+)+y", "xxy", String(repeating: "x", count: 10_000), false),
    (#"^(\w+\s?)*$"#, "a", String(repeating: "a", count: 10_000) + "!", true),
    (
      "(.*a){12}", String(repeating: "a", count: 12),
      String(repeating: "a", count: 11) + String(repeating: "x", count: 10_000), true
    ),
  ]

  static func schema(_ pattern: String) -> String {
    let quoted = OracleText.jsonQuoted(pattern)
    return
      #"{"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string", "pattern": "#
      + quoted + "}}, \"required\": [\"id\"]}"
  }

  /// Runs recsh under `timeout 60` with `arguments`, in `folder`.
  static func recsh(_ arguments: [String], in folder: TempFolder) throws -> RecshBinary.Result {
    let words = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let result = try RecshBinary.runShell(
      "exec timeout 60 \"$RECSH\" " + words.joined(separator: " "), directory: folder.url)
    #expect(result.status != 124, "recsh ran past 60 s")
    return result
  }

  @Test(arguments: 0..<cases.count)
  func setOfAHostileValueIsRefusedAndChangesNothing(_ index: Int) throws {
    let test = Self.cases[index]
    let folder = try TempFolder()
    try folder.write("s.json", Self.schema(test.pattern))
    let original = "[{\"id\": \"r1\", \"name\": \(OracleText.jsonQuoted(test.good))}]\n"
    try folder.write("d.json", original)
    let result = try Self.recsh(
      [
        "d.json", "--schema", "s.json", "-c", "use r1", "-c",
        "set name \(OracleText.jsonQuoted(test.hostile))",
        "-c", "save",
      ],
      in: folder)
    #expect(result.status == 1)
    let reason =
      test.costly
      ? "pattern \(test.pattern) is too costly for this value"
      : "must match pattern \(OracleText.jsonQuoted(test.pattern)), found a string"
    #expect(result.stderr == "<command>:2: error: field 'name': \(reason)\n", "\(test.pattern)")
    #expect(try folder.read("d.json") == original)
  }

  /// A file of 1,000 records whose every value is hostile is refused (exit 3) with the
  /// first 20 violations and the count of the rest, untouched.
  @Test func aFileOfHostileValuesIsRefusedWithinItsTimeout() throws {
    let folder = try TempFolder()
    try folder.write("s.json", Self.schema("^(a+)+$"))
    let value = String(repeating: "a", count: 1_000) + "!"
    let records = (1...1_000).map { "{\"id\": \"r\($0)\", \"name\": \"\(value)\"}" }
    let original = "[\n" + records.joined(separator: ",\n") + "\n]\n"
    try folder.write("d.json", original)
    let result = try Self.recsh(["d.json", "--schema", "s.json", "-c", "list"], in: folder)
    #expect(result.status == 3)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 21)
    #expect(
      lines.first
        == "d.json:2:22: error: record 1 (id \"r1\"): field 'name': pattern ^(a+)+$ is too costly for this value"
    )
    #expect(lines.last == "d.json: error: 980 more violations of the schema")
    #expect(try folder.read("d.json") == original)
  }

  /// `new` and `add` check the pattern too, and a list's items are checked one by one.
  @Test func newAndAddRefuseAHostileValue() throws {
    let folder = try TempFolder()
    try folder.write(
      "s.json",
      #"{"type": "object", "properties": {"id": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string", "pattern": "^(a|aa)+$"}}}}"#
    )
    try folder.write("d.json", "[{\"id\": \"r1\", \"tags\": [\"a\"]}]\n")
    let hostile = OracleText.jsonQuoted(String(repeating: "a", count: 5_000) + "!")
    let result = try Self.recsh(
      [
        "d.json", "--schema", "s.json", "-k", "-c", "use r1", "-c", "add tags \(hostile)", "-c",
        "new id r2 tags [\(hostile)]",
      ],
      in: folder)
    #expect(result.status == 1)
    #expect(
      result.stderr == """
        <command>:2: error: field 'tags': /1: pattern ^(a|aa)+$ is too costly for this value
        <command>:3: error: field 'tags': /0: pattern ^(a|aa)+$ is too costly for this value

        """)
  }

  /// A pattern that is not ECMA-262 is refused when the schema is read, with its pointer.
  @Test func aPatternOfPCRE2sOwnSyntaxIsRefusedWithItsPointer() throws {
    let folder = try TempFolder()
    try folder.write("s.json", Self.schema(#"^\h+$"#))
    try folder.write("d.json", "[]\n")
    let result = try Self.recsh(["d.json", "--schema", "s.json", "-c", "list"], in: folder)
    #expect(result.status == 3)
    #expect(
      result.stderr
        == "s.json: error: /properties/name/pattern: pattern \"^\\\\h+$\" is not a valid regular expression: '\\h' is not an ECMA-262 escape at offset 1\n"
    )
  }
}
