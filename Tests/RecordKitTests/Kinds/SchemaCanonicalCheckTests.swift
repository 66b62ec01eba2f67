import Testing

@testable import RecordKit

/// `JSONSchema.admits(canonical:_:node:)`, the check of a record's text as a file opens,
/// against the tree checker: random records, valid and not, over a schema with every
/// keyword recsh supports, must get the same answer from both. (The official suite's
/// cases are run through both in `JSONSchemaConformanceTests`.)
@Suite struct SchemaCanonicalCheckTests {
  /// The schema (made per test: a schema is not `Sendable`).
  /// How the test schema's root holds its rules: as they are; with a required key that is
  /// no property (found by a walk of the members, not the properties' bits); or behind a
  /// `$ref` (checked through the text, so a file's read then keeps its keys spelled).
  enum Root: CaseIterable { case plain, otherRequired, reference }

  static func makeSchema(_ root: Root = .plain) -> JSONSchema {
    let book = """
      {"type": "object",
       "properties": {
         "isbn": {"type": "string", "pattern": "^97[89]-"},
         "title": {"type": "string", "minLength": 2, "maxLength": 4},
         "year": {"type": "integer", "minimum": 1450, "maximum": 2100},
         "price": {"type": ["number", "null"], "exclusiveMinimum": 0, "exclusiveMaximum": 100.5},
         "score": {"minimum": -3, "exclusiveMaximum": 7},
         "days": {"type": "array", "items": {"type": "string", "format": "date"}, "uniqueItems": true},
         "tags": {"type": "array", "items": {"type": "string"}},
         "code": {"type": "string", "pattern": "^AB-"},
         "tail": {"pattern": "-z$"},
         "nums": {"items": {"type": "number"}},
         "genre": {"enum": ["a", "b", 1, {"x": 1, "y": [1, 2]}]},
         "fixed": {"const": [1, "é"]},
         "tree": {"$ref": "#/$defs/node"},
         "strict": {"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a", "zz"],
                    "additionalProperties": false}
       },
       "required": \(root == .otherRequired ? #"["isbn", "title", "other"]"# : #"["isbn", "title"]"#)
      """
    let node = """
      "node": {"type": "object",
               "properties": {"child": {"$ref": "#/$defs/node"}, "v": {"type": "integer", "maximum": 3}}}
      """
    let document =
      root == .reference
      ? ##"{"$ref": "#/$defs/book", "$defs": {"book": "## + book + "}, " + node + "}}"
      : book + #", "$defs": {"# + node + "}}"
    do {
      return try JSONSchema(reading: JSONValue.parse(bytes: Array(document.utf8)))
    } catch {
      preconditionFailure("the test's schema does not read: \(error)")
    }
  }

  /// Candidate values for each key, valid and not for its rules, the first valid.
  static let candidates: [(key: String, values: [String])] = [
    ("isbn", [#""978-1""#, #""979-""#, #""97-8""#, "978", #""x978-""#, #""978-\n""#]),
    (
      "title",
      [
        #""ab""#, #""a""#, #""abcd""#, #""abcde""#, #""éé""#, #""東京都庁""#, #""👍🏽""#, #""a\"""#, #""\n\t\\x""#,
        "null",
      ]
    ),
    (
      "year",
      ["1450", "1449", "2100", "2101", "2.1e3", "1500.0", "1500.5", "-1", "\"1500\"", "true", "1e400"]
    ),
    ("price", ["null", "0", "0.0001", "100.5", "100.49", "-0", "1E1", "\"1\"", "100"]),
    ("score", ["2", "-2", "-2.5", "-3", "-3.0", "7", "7.0", "6.9", "-2.0001", "1e1", "-25e-1"]),
    (
      "days",
      [
        "[]", #"["2024-01-31"]"#, #"["2024-01-31","2024-01-31"]"#, #"["2024-02-30"]"#,
        #"["2024-01-01","2024-01-02"]"#, "[1]", "{}",
      ]
    ),
    (
      "genre",
      [
        #""a""#, #""c""#, "1", "1.0", "1e0", "2", #"{"y":[1,2],"x":1}"#, #"{"x":1,"y":[1,2]}"#, #"{"x":1}"#,
        "null",
      ]
    ),
    // Lists whose elements are checked by their kinds alone: as a file is read, by the
    // kinds the reader noted (`MemberMarks`), without a walk.
    ("tags", [#"["a","b"]"#, "[]", #"["a",1]"#, "[null]", #"["a",["b"]]"#, "[{}]", #""a""#]),
    ("nums", ["[1,2.5]", "[]", "[1e2,-0]", #"["1"]"#, "[true]", "[[1]]", "7"]),
    // Plain patterns, matched from the flat rules' bytes; an escaped string by the pattern.
    ("code", [#""AB-1""#, #""AB-""#, #""xAB-""#, #""ab-1""#, #""A\u0042-1""#, #""A\u0043-1""#, #""AB""#]),
    ("tail", [#""a-z""#, #""-z""#, #""-z-""#, #""z""#, #""\n-z""#, "5", #""-\u007a""#]),
    ("fixed", [#"[1,"é"]"#, #"[1.0,"é"]"#, #"[1,"e\u0301"]"#, #"["é",1]"#, "[1]"]),
    (
      "tree",
      [
        "{}", #"{"v":3}"#, #"{"v":4}"#, #"{"child":{"child":{"v":2}}}"#, #"{"child":{"child":{"v":9}}}"#,
        #"{"child":[]}"#, "5",
      ]
    ),
    (
      "strict",
      [
        #"{"a":true,"zz":1}"#, #"{"a":true}"#, #"{"zz":1,"a":false}"#, #"{"a":1,"zz":1}"#,
        #"{"a":true,"zz":1,"b":2}"#,
      ]
    ),
    ("other", ["1", #""free""#, "[[]]"]),
  ]

  static func randomRecord(_ random: inout SplitMix64) throws -> JSONValue {
    var members: [JSONObject.Member] = []
    // Each list's first value is valid; it is taken three times in four, so that a
    // fair share of records pass.
    for (key, values) in candidates where Int.random(in: 0..<10, using: &random) < 7 {
      let text =
        Int.random(in: 0..<4, using: &random) > 0
        ? values[0] : values[Int.random(in: 0..<values.count, using: &random)]
      members.append(JSONObject.Member(key: key, value: try JSONValue.parse(bytes: Array(text.utf8))))
    }
    // Now and then out of the schema's order, so that names are looked for.
    if Int.random(in: 0..<3, using: &random) == 0 { members.shuffle(using: &random) }
    return .object(JSONObject(members))
  }

  @Test(arguments: [UInt64(1), 2, 3])
  func theTextsCheckAgreesWithTheTreesOnRandomRecords(seed: UInt64) throws {
    let schema = Self.makeSchema()
    var random = SplitMix64(seed: seed)
    var admitted = 0
    for _ in 0..<3000 {
      let record = try Self.randomRecord(&random)
      let byTree = schema.violations(of: record, limit: 1).isEmpty
      let text = CanonicalJSON.text(of: record)
      let byText = text.withUnsafeBufferPointer { schema.admits(canonical: $0, 0..<$0.count) }
      #expect(byText == byTree, "\(record.compactText): the tree says \(schema.violations(of: record))")
      if byTree { admitted += 1 }
    }
    // Both answers must be common, or the comparison says little.
    #expect(admitted > 30 && admitted < 2970, "\(admitted) of 3000 admitted")
  }

  /// The check as a file is read (each record's members as the reader marked them,
  /// `RecordReading.check`) against the tree checker, record by record: random files of
  /// the random records above, both layouts, both reading paths, each form of the root
  /// (the reader writes the keys as their codes where the root's check reads the members
  /// through their marks alone, and spells them where it reads the text).
  @Test(arguments: [UInt64(4), 5], Root.allCases)
  func theCheckWhileReadingRefusesWhatTheTreeRefuses(seed: UInt64, root: Root) throws {
    let schema = Self.makeSchema(root)
    #expect(schema.checksMembersByMarks == (root != .reference))
    var random = SplitMix64(seed: seed)
    let records = try (0..<1000).map { _ in try Self.randomRecord(&random) }
    let expected = records.indices.filter { !schema.violations(of: records[$0], limit: 1).isEmpty }
    // Both answers must be common, or the comparison says little.
    #expect(expected.count > 50 && expected.count < 980, "\(expected.count) of 1000 refused")
    for layout in [RecordLayout.array, .lines] {
      let texts = records.map(\.compactText)
      let file = layout == .lines ? texts.joined(separator: "\n") : "[" + texts.joined(separator: ",\n") + "]"
      for streaming in [true, false] {
        let read = try RunTimeKind.$current.withValue(.unbound) {
          try Array(file.utf8).withUnsafeBufferPointer { buffer in
            try RecordFile<RunTimeRecord>.decodeRecordsAndTable(
              buffer, layout: layout, streaming: streaming, readings: nil, inferring: false, checking: schema,
              passing: { _ in })
          }
        }
        #expect(read.records.count == records.count)
        #expect(read.refused == expected, "\(layout), streaming: \(streaming)")
      }
    }
  }

  @Test func eachRuleRefusesFromTheText() throws {
    let schema = Self.makeSchema()
    let cases: [(String, Bool)] = [
      (#"{"isbn":"978-","title":"ab"}"#, true),
      (#"{"title":"ab"}"#, false),
      (#"{"isbn":"978-","title":"a"}"#, false),
      (#"{"isbn":"978-","title":"éééé"}"#, true),
      (#"{"isbn":"978-","title":"ééééé"}"#, false),
      (#"{"isbn":"978-","title":"ab","year":1500.0}"#, true),
      (#"{"isbn":"978-","title":"ab","year":1500.5}"#, false),
      (#"{"isbn":"978-","title":"ab","price":0}"#, false),
      (#"{"isbn":"978-","title":"ab","genre":1.0}"#, true),
      (#"{"isbn":"978-","title":"ab","days":["2024-01-01","2024-01-01"]}"#, false),
      (#"{"isbn":"978-","title":"ab","tree":{"child":{"v":4}}}"#, false),
      (#"{"isbn":"978-","title":"ab","strict":{"a":true}}"#, false),
    ]
    for (text, expected) in cases {
      let canonical = try CanonicalJSON.read(document: Array(text.utf8))
      #expect(
        canonical.withUnsafeBufferPointer { schema.admits(canonical: $0, 0..<$0.count) } == expected,
        "\(text)")
    }
  }

  /// Bounds that admit no whole number (a schema whose bounds cross is refused when
  /// read), numbers past an Int's reach, lengths of escaped strings.
  @Test func boundsAtTheirEdges() throws {
    let cases: [(schema: String, value: String, admitted: Bool)] = [
      (#"{"exclusiveMinimum": 1, "exclusiveMaximum": 2}"#, "1", false),
      (#"{"exclusiveMinimum": 1, "exclusiveMaximum": 2}"#, "2", false),
      (#"{"exclusiveMinimum": 1, "exclusiveMaximum": 2}"#, "1.5", true),
      (#"{"minimum": -3}"#, "-3", true),
      (#"{"minimum": -3}"#, "-4", false),
      (#"{"maximum": 10}"#, "99999999999999999999", false),
      (#"{"minimum": 10}"#, "99999999999999999999", true),
      (#"{"minimum": 0, "maximum": 5}"#, "3.5", true),
      (#"{"minimum": 0, "maximum": 5}"#, "5.0", true),
      (#"{"minimum": 0, "maximum": 5}"#, "5.01", false),
      (#"{"minimum": 0, "maximum": 5}"#, "-0.5", false),
      (#"{"minimum": 0, "maximum": 5}"#, "-0.0", true),
      (#"{"minimum": 0, "maximum": 5}"#, "4.5e0", true),
      (#"{"minimum": 0, "maximum": 5}"#, "45e-1", true),
      (#"{"minimum": 0, "maximum": 5}"#, "0.5E1", true),
      (#"{"minimum": 0, "maximum": 5}"#, "0.51E1", false),
      (#"{"exclusiveMinimum": -4, "exclusiveMaximum": -3}"#, "-3.5", true),
      (#"{"exclusiveMinimum": -4, "exclusiveMaximum": -3}"#, "-3.0", false),
      (#"{"exclusiveMinimum": -4, "exclusiveMaximum": -3}"#, "-4", false),
      (#"{"exclusiveMinimum": -4, "exclusiveMaximum": -3}"#, "-4.0001", false),
      (#"{"exclusiveMinimum": -4, "exclusiveMaximum": -3}"#, "-3.0001", true),
      (#"{"minimum": 1, "maximum": 1}"#, "1.00", true),
      (#"{"minimum": 1, "maximum": 1}"#, "1.001", false),
      (#"{"minimum": 1, "maximum": 1}"#, "0.999", false),
      (#"{"maximum": 1.5}"#, "1", true),
      (#"{"maximum": 1.5}"#, "2", false),
      (#"{"maxLength": 1}"#, #""\u00e9""#, true),
      (#"{"maxLength": 1}"#, #""\n\n""#, false),
      // Lengths the bytes alone settle (from a twelfth of them to all), and the edges
      // where the scalars must be counted.
      (#"{"minLength": 1}"#, #""""#, false),
      (#"{"minLength": 1}"#, #""a""#, true),
      (#"{"minLength": 1}"#, #""\u0001""#, true),
      (#"{"minLength": 2}"#, #""\u0001""#, false),
      (#"{"minLength": 2}"#, #""東""#, false),
      (#"{"minLength": 1, "maxLength": 3}"#, #""東京都""#, true),
      (#"{"minLength": 1, "maxLength": 2}"#, #""東京都""#, false),
      (#"{"maxLength": 12}"#, #""abcdefghijkl""#, true),
      (#"{"maxLength": 12}"#, #""abcdefghijklm""#, false),
      (#"{"minLength": 2}"#, #""abcdefghijklmnopqrstuvwx""#, true),
    ]
    for (document, value, admitted) in cases {
      let schema = try JSONSchema(reading: JSONValue.parse(bytes: Array(document.utf8)))
      let text = try CanonicalJSON.read(document: Array(value.utf8))
      let byText = text.withUnsafeBufferPointer { schema.admits(canonical: $0, 0..<$0.count) }
      #expect(byText == admitted, "\(document) \(value)")
      #expect(schema.violations(of: try JSONValue.parse(bytes: Array(value.utf8))).isEmpty == admitted)
    }
  }
}
