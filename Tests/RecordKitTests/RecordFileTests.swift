import Testing

@testable import RecordKit

/// The file format: records from and to bytes, lossless, with errors that say where.
@Suite struct RecordFileTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  static let sample = """
    [
      {
        "id": "k3x9p2aa",
        "title": "Renew passport",
        "done": false,
        "priority": 3,
        "tags": [
          "admin",
          "caf\u{E9} \u{65E5}\u{672C}"
        ],
        "due": "2026-12-01",
        "estimate": 1.50,
        "big": 12345678901234567890,
        "sci": 1e3,
        "neg": -0.0,
        "meta": {
          "source": "import",
          "list": [],
          "obj": {}
        }
      },
      {
        "id": "b7c1d2e3",
        "title": "Call \\"Ann\\"\\n\\ttwice",
        "due": null
      },
      {
        "id": "z0000001",
        "due": "2026-12-01T09:30:00+01:00"
      }
    ]

    """

  @Test func aFileWrittenByRecshIsByteIdenticalAfterALoadAndSave() throws {
    let loaded = try RecordFile<TaskRecord>.decode(Self.bytes(Self.sample))
    let written = RecordFile<TaskRecord>.encode(loaded.document.records)
    #expect(String(decoding: written, as: UTF8.self) == Self.sample)
    #expect(loaded.warnings.isEmpty)
  }

  @Test func valuesKeepTheirSpellingThroughALoad() throws {
    let loaded = try RecordFile<TaskRecord>.decode(Self.bytes(Self.sample))
    let first = loaded.document.records[0]
    #expect(first.due == .value(try #require(ISODate("2026-12-01"))))
    #expect(first.custom["estimate"] == .number("1.50"))
    #expect(first.custom["big"] == .number("12345678901234567890"))
    #expect(first.custom["neg"] == .number("-0.0"))
    #expect(first.tags == ["admin", "caf\u{E9} \u{65E5}\u{672C}"])
    #expect(loaded.document.records[1].title == "Call \"Ann\"\n\ttwice")
    #expect(loaded.document.records[1].due == .null)
    #expect(loaded.document.records[2].title == nil, "absent stays absent")
  }

  @Test func keysOfAForeignFileAreWrittenInTheStableOrder() throws {
    let text = #"[{"zz": 1, "title": "t", "id": "a1", "done": true}]"#
    let loaded = try RecordFile<TaskRecord>.decode(Self.bytes(text))
    let written = String(decoding: RecordFile<TaskRecord>.encode(loaded.document.records), as: UTF8.self)
    #expect(
      written
        == "[\n  {\n    \"id\": \"a1\",\n    \"title\": \"t\",\n    \"done\": true,\n    \"zz\": 1\n  }\n]\n")
    let again = try RecordFile<TaskRecord>.decode(Self.bytes(written))
    #expect(RecordFile<TaskRecord>.encode(again.document.records) == Array(written.utf8))
  }

  @Test func anEmptyFileIsAnEmptyCollectionAndAnEmptyArrayIsWrittenAsSuch() throws {
    #expect(try RecordFile<TaskRecord>.decode([]).document.count == 0)
    #expect(try RecordFile<TaskRecord>.decode(Self.bytes("[]")).document.count == 0)
    #expect(RecordFile<TaskRecord>.encode([]) == Self.bytes("[]\n"))
  }

  @Test(arguments: [
    ("{}", "1:1", "expected an array of records, found an object"),
    ("[1]", "1:2", "record 1: expected an object, found a number"),
    (
      "[\n  {\"id\": \"a\"},\n  {\"id\": \"x2\", \"priority\": \"high\"}\n]", "3:3",
      "record 2 (id \"x2\"): field 'priority': expected an integer 0–5, found \"high\""
    ),
    ("[{\"title\": \"x\"}]", "1:2", "record 1: no \"id\""),
    (
      "[\n{\"id\": \"a\"},\n{\"id\": \"b\"},\n{\"id\": \"a\"}]", "4:1",
      "records 1 and 3 have the same id \"a\""
    ),
    ("[{\"id\": \"a\",}]", "1:12", "trailing comma before '}'"),
    ("[{\"id\": \"a\", \"id\": \"b\"}]", "1:14", "duplicate key \"id\""),
    (" ", "1:2", "empty document"),
  ])
  func aFileThatIsNotRecordsIsRefusedWithItsPosition(text: String, position: String, message: String) {
    do {
      _ = try RecordFile<TaskRecord>.decode(Self.bytes(text))
      Issue.record("accepted \(text)")
    } catch {
      #expect("\(error.position)" == position)
      #expect(error.description.hasPrefix(message), "\(error.description)")
    }
  }

  @Test func aFileOfAnotherKindIsLoadedWithAWarning() throws {
    let contacts = #"[{"id": "c1", "name": "Ann", "email": "a@b.c"}]"#
    let loaded = try RecordFile<TaskRecord>.decode(Self.bytes(contacts))
    #expect(
      loaded.warnings == [
        "the record has a task field (title, detail, done, priority, tags, due); is this file of another kind? (see --kind)"
      ])
    #expect(try RecordFile<ContactRecord>.decode(Self.bytes(contacts)).warnings.isEmpty)
  }

  @Test func randomRecordsSurviveEncodeAndDecode() throws {
    var generator = SplitMix64(seed: UInt64.random(in: 0...1 << 40))
    for _ in 0..<200 {
      let records = (0..<generator.int(6)).map { index in Self.randomTask(index, using: &generator) }
      let bytes = RecordFile<TaskRecord>.encode(records)
      let decoded = try RecordFile<TaskRecord>.decode(bytes)
      #expect(decoded.document.records == records)
      #expect(RecordFile<TaskRecord>.encode(decoded.document.records) == bytes)
    }
  }

  static func randomTask(_ index: Int, using g: inout SplitMix64) -> TaskRecord {
    let texts = [
      "", "a", "two words", "quote \" and \\", "line\nbreak\u{1}", "caf\u{E9}", "\u{1F600}", "null",
    ]
    var record = TaskRecord(id: "id\(index)")
    if g.int(2) == 0 { record.title = texts.pick(using: &g) }
    if g.int(3) == 0 { record.detail = texts.pick(using: &g) }
    if g.int(2) == 0 { record.done = g.int(2) == 0 }
    if g.int(2) == 0 { record.priority = g.int(6) }
    if g.int(2) == 0 { record.tags = (0..<g.int(3)).map { _ in texts.pick(using: &g) } }
    if g.int(3) == 0 {
      record.due = g.int(2) == 0 ? .null : ISODate("2026-12-0\(1 + g.int(9))").map(Nullable.value)
    }
    if g.int(3) == 0 {
      record.custom = CustomFields([
        .init(key: "n", value: .number(["1.50", "1e3", "-0.0", "12345678901234567890"].pick(using: &g))),
        .init(key: "o", value: .object(JSONObject(["a": .array([.null, .bool(true)])]))),
      ])
    }
    return record
  }
}
