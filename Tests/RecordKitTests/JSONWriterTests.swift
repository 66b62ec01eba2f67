import Testing

@testable import RecordKit

/// `JSONWriter`: the exact layout recsh saves (Python's `json.dumps(indent=2,
/// ensure_ascii=False)` plus a final newline), minimal escaping, and the round trip.
@Suite struct JSONWriterTests {
  @Test func nestedContainersAreIndentedTwoSpacesPerLevel() {
    let value: JSONValue = .object(
      JSONObject([
        "id": .string("a1"),
        "tags": .array([.string("x"), .string("y")]),
        "empty": .array([]),
        "none": .object(JSONObject()),
        "nested": .object(JSONObject(["n": .null, "b": .array([.bool(true), .bool(false)])])),
        "rows": .array([.array([]), .array([.number("1")]), .object(JSONObject())]),
      ]))
    let expected = """
      {
        "id": "a1",
        "tags": [
          "x",
          "y"
        ],
        "empty": [],
        "none": {},
        "nested": {
          "n": null,
          "b": [
            true,
            false
          ]
        },
        "rows": [
          [],
          [
            1
          ],
          {}
        ]
      }
      """
    #expect(JSONTest.written(value) == expected + "\n")
  }

  @Test(arguments: [
    (JSONValue.array([]), "[]\n"),
    (.object(JSONObject()), "{}\n"),
    (.null, "null\n"),
    (.bool(false), "false\n"),
    (.number("-0.0"), "-0.0\n"),
    (.string("x"), "\"x\"\n"),
    (.array([.array([.array([])])]), "[\n  [\n    []\n  ]\n]\n"),
  ])
  func smallDocumentIsWrittenExactly(_ value: JSONValue, _ expected: String) {
    #expect(JSONTest.written(value) == expected)
  }

  static let controlEscapes = [
    #"\u0000"#, #"\u0001"#, #"\u0002"#, #"\u0003"#, #"\u0004"#, #"\u0005"#, #"\u0006"#, #"\u0007"#,
    #"\b"#, #"\t"#, #"\n"#, #"\u000b"#, #"\f"#, #"\r"#, #"\u000e"#, #"\u000f"#,
    #"\u0010"#, #"\u0011"#, #"\u0012"#, #"\u0013"#, #"\u0014"#, #"\u0015"#, #"\u0016"#, #"\u0017"#,
    #"\u0018"#, #"\u0019"#, #"\u001a"#, #"\u001b"#, #"\u001c"#, #"\u001d"#, #"\u001e"#, #"\u001f"#,
  ]

  @Test(arguments: 0..<32)
  func everyControlCharacterIsEscapedShortOrAsLowercaseHex(_ code: Int) throws {
    let scalar = try #require(Unicode.Scalar(code))
    let text = "a\(Character(scalar))b"
    #expect(JSONTest.written(.string(text)) == "\"a\(Self.controlEscapes[code])b\"\n")
    JSONTest.expectRoundTrip(.string(text), "U+\(code)")
  }

  @Test(arguments: [
    ("\"", #""\"""#),
    ("\\", #""\\""#),
    ("/", #""/""#),
    ("\u{7F}", "\"\u{7F}\""),
    ("\u{2028}\u{2029}", "\"\u{2028}\u{2029}\""),
    ("café 東京 😀 👩‍👩‍👧", "\"café 東京 😀 👩‍👩‍👧\""),
    ("e\u{301}", "\"e\u{301}\""),
    ("\u{FEFF}", "\"\u{FEFF}\""),
    ("long text without escapes, longer than a word", "\"long text without escapes, longer than a word\""),
    ("escape at the end of a long run\n", #""escape at the end of a long run\n""#),
  ])
  func onlyQuoteBackslashAndControlsAreEscaped(_ text: String, _ expected: String) {
    #expect(JSONTest.written(.string(text)) == expected + "\n")
  }

  @Test func keysAreEscapedLikeStrings() {
    let value = JSONValue.object(JSONObject(["a\"b\n": .null]))
    #expect(JSONTest.written(value) == "{\n  \"a\\\"b\\n\": null\n}\n")
  }

  @Test func numbersAreWrittenAsSpelled() {
    let spellings = ["1.50", "1e3", "-0.0", "12345678901234567890", "1E+2", "0", "-1.5e-300"]
    let value = JSONValue.array(spellings.map(JSONValue.number))
    #expect(JSONTest.written(value) == "[\n" + spellings.map { "  " + $0 }.joined(separator: ",\n") + "\n]\n")
  }

  @Test func streamingWritesTheSameBytesAsATree() {
    var writer = JSONWriter()
    writer.beginArray()
    for id in ["a", "b"] {
      writer.beginObject()
      writer.key("id")
      writer.string(id)
      writer.key("done")
      writer.bool(id == "a")
      writer.key("priority")
      writer.numberSpelling("3")
      writer.key("due")
      writer.null()
      writer.key("tags")
      writer.beginArray()
      writer.endArray()
      writer.key("x")
      writer.value(.object(JSONObject(["k": .array([.number("1")])])))
      writer.endObject()
    }
    writer.endArray()
    writer.finish()
    let tree = JSONValue.array(
      ["a", "b"].map { id in
        .object(
          JSONObject([
            "id": .string(id), "done": .bool(id == "a"), "priority": .number("3"), "due": .null,
            "tags": .array([]), "x": .object(JSONObject(["k": .array([.number("1")])])),
          ]))
      })
    #expect(writer.bytes == JSONWriter.write(tree))
  }

  @Test func drainingInChunksGivesTheSameBytes() {
    let elements = (0..<50).map { JSONValue.object(JSONObject(["n": .number(String($0))])) }
    var writer = JSONWriter()
    var drained: [UInt8] = []
    writer.beginArray()
    for element in elements {
      writer.value(element)
      if writer.bytes.count > 64 { writer.drain { drained.append(contentsOf: $0) } }
    }
    writer.endArray()
    writer.finish()
    writer.drain { drained.append(contentsOf: $0) }
    #expect(writer.bytes.isEmpty)
    #expect(drained == JSONWriter.write(.array(elements)))
  }

  @Test(arguments: [
    ("0", true), ("-0", true), ("1.50", true), ("1E+2", true), ("1e-0", true), ("12345678901234567890", true),
    ("", false), ("-", false), ("01", false), ("+1", false), (".5", false), ("1.", false), ("1e", false),
    ("1e+", false), ("NaN", false), ("Infinity", false), ("1_000", false), (" 1", false), ("0x1", false),
  ])
  func numberSpellingsAreCheckedAgainstTheGrammar(_ spelling: String, _ valid: Bool) {
    #expect(JSONValue.isValidNumberSpelling(spelling) == valid)
  }
}
