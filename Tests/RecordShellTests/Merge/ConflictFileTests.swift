import Testing

@testable import RecordKit
@testable import RecordShell

/// The conflicts file beside a merged data file: its place, its bytes, what it refuses,
/// and how a conflict is listed.
@Suite struct ConflictFileTests {
  static let file = ConflictFile(
    hash: "0123456789abcdef",
    conflicts: [
      MergeConflict(
        key: "a1", field: "title", base: .string("one"), ours: .string("uno"), theirs: .string("eins")),
      MergeConflict(key: "b 2", field: "due", base: nil, ours: .string("2026-12-01"), theirs: .null),
      MergeConflict(
        key: "c3", field: "*", base: .object(JSONObject(["id": .string("c3")])), ours: nil,
        theirs: .object(JSONObject(["id": .string("c3"), "n": .number("1.50")]))),
    ])

  @Test func itIsJSONLinesAndReadsBackTheSame() throws {
    let bytes = Self.file.encoded()
    #expect(
      String(decoding: bytes, as: UTF8.self) == """
        {"recsh-conflicts":1,"hash":"0123456789abcdef"}
        {"key":"a1","field":"title","base":"one","ours":"uno","theirs":"eins"}
        {"key":"b 2","field":"due","ours":"2026-12-01","theirs":null}
        {"key":"c3","field":"*","base":{"id":"c3"},"theirs":{"id":"c3","n":1.50}}

        """)
    #expect(try ConflictFile.decode(bytes) == Self.file)
  }

  @Test(arguments: [
    ("", "it does not start with recsh's header"),
    ("{\"key\":\"a\",\"field\":\"b\"}\n", "it does not start with recsh's header"),
    ("{\"recsh-conflicts\":1,\"hash\":\"x\"}\n{\"key\":\"a\"}\n", "line 2 has no key and field"),
    ("{\"recsh-conflicts\":1,\"hash\":\"x\"}\n[1]\n", "line 2 is not an object"),
    (
      "{\"recsh-conflicts\":1,\"hash\":\"x\"}\n{\"key\":",
      "2:1: the last line ends inside its value (the file ends with no line break, mid-value)"
    ),
  ])
  func damageIsRefusedSayingWhat(_ text: String, _ message: String) {
    #expect(throws: ConflictFileError(message)) { try ConflictFile.decode(Array(text.utf8)) }
  }

  @Test func aConflictIsListedAsKeyFieldBaseOursTheirs() {
    #expect(
      Self.file.conflicts.map(\.line) == [
        #"a1 title: "one" → "uno" | "eins""#,
        #"'b 2' due: (not set) → "2026-12-01" | null"#,
        #"c3 *: {"id": "c3"} → (deleted) | {"id": "c3", "n": 1.50}"#,
      ])
  }
}
