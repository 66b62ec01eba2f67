import Testing

@testable import RecordKit

/// Run-time kinds without the shell: inference, keys, and edits through the one
/// property-update command, encoded for the journal and read back.
@Suite struct RunTimeKindUnitTests {
  static func object(_ text: String) throws -> JSONObject {
    guard case .object(let object) = try JSONValue.parse(bytes: Array(text.utf8)) else {
      throw JSONSchemaError(.notAnObject(found: .array), at: .root)
    }
    return object
  }

  static func inferred(_ records: [String]) throws -> RecordSchema {
    var inference = KindInference()
    for text in records { inference.add(CustomFields(try object(text).members)) }
    return try RecordSchema(reading: inference.schemaDocument(title: "t"))
  }

  @Test func eachKeyIsTypedFromEveryValueItHolds() throws {
    let schema = try Self.inferred([
      #"{"s": "a", "i": 1, "n": 1, "b": true, "d": "2026-12-01", "t": "2026-12-01T09:30:00Z", "l": ["x"], "o": {"c": "x"}, "m": 1, "z": null}"#,
      #"{"s": "b", "i": -7, "n": 2.5, "b": false, "d": "2024-02-29", "t": "2026-01-01T00:00:00+01:00", "l": [], "o": {"c": "y", "e": 2}, "m": "one", "z": "q"}"#,
      #"{"s": "c", "i": 0, "n": 1e3, "b": true, "d": "2026-12-02"}"#,
    ])
    let types = Dictionary(uniqueKeysWithValues: schema.fields.map { ($0.name, $0.shape.type.name) })
    #expect(types["s"] == "string")
    #expect(types["i"] == "integer")
    #expect(types["n"] == "number")
    #expect(types["b"] == "bool")
    #expect(types["d"] == "date")
    #expect(types["t"] == "date-time")
    #expect(types["l"] == "list of string")
    #expect(types["o"] == "object")
    #expect(types["m"] == "any JSON value")
    #expect(types["z"] == "string")
    #expect(schema.field(named: "z")?.shape.isNullable == true)
    let required = schema.fields.filter(\.isRequired).map(\.name)
    #expect(required == ["s", "i", "n", "b", "d"])
  }

  @Test func inferenceTypesAtMostItsLimitOfKeysAndCountsTheRest() throws {
    var inference = KindInference()
    for index in 0..<(KindInference.fieldLimit + 500) {
      inference.add(CustomFields([JSONObject.Member(key: "k\(index)", value: .number("1"))]))
    }
    #expect(inference.untypedKeys == 500)
    let schema = try RecordSchema(reading: inference.schemaDocument(title: "t"))
    #expect(schema.fields.count == KindInference.fieldLimit)
  }

  @Test func theKeyIsIdWhenEveryRecordHasOneOfOneType() throws {
    let schema = try RecordSchema(reading: .object(JSONObject()))
    #expect(
      RunTimeKind.chooseKey(schema: schema, ids: [.string("a"), .string("b")], recordCount: 2)
        == RecordKey(name: "id", isInteger: false))
    #expect(
      RunTimeKind.chooseKey(schema: schema, ids: [.number("1"), .number("20")], recordCount: 2)
        == RecordKey(name: "id", isInteger: true))
    #expect(RunTimeKind.chooseKey(schema: schema, ids: [.number("1"), .string("b")], recordCount: 2) == nil)
    #expect(RunTimeKind.chooseKey(schema: schema, ids: [.string("a"), nil], recordCount: 2) == nil)
    #expect(RunTimeKind.chooseKey(schema: schema, ids: [.string("")], recordCount: 1) == nil)
    #expect(RunTimeKind.chooseKey(schema: schema, ids: [.number("1.5")], recordCount: 1) == nil)
    let keyed = try RecordSchema(
      reading: .object(
        try Self.object(#"{"x-recsh-key": "isbn", "properties": {"isbn": {"type": "string"}}}"#)))
    #expect(
      RunTimeKind.chooseKey(schema: keyed, ids: [nil], recordCount: 1)
        == RecordKey(name: "isbn", isInteger: false))
  }

  /// Every edit of a run-time field, encoded for the journal both ways (the direct bytes
  /// and the tree agree), read back, reverted and applied again to the same states.
  @Test func runTimeEditsRoundTripThroughTheJournalEncoding() throws {
    let schema = try RecordSchema(
      reading: .object(
        try Self.object(
          #"{"properties": {"title": {"type": "string"}, "year": {"type": "integer", "maximum": 2100}, "authors": {"type": "array", "items": {"type": "string"}}, "publisher": {"type": "object", "properties": {"city": {"type": "string"}}}}}"#
        )))
    let kind = RunTimeKind(name: "books", schema: schema, key: nil)
    try RunTimeKind.$current.withValue(kind) {
      var editor = Editor(
        document: try Document(records: [
          RunTimeRecord(id: "#1", members: [JSONObject.Member(key: "title", value: .string("Dune"))])
        ]))
      let commands: [Command<RunTimeRecord>?] = [
        try editor.set(
          [FieldAssignment("year", .word("1965")), FieldAssignment("title", .quoted("Dune!"))], at: 0
        ).command,
        try editor.set([FieldAssignment("publisher.city", .word("Oslo"))], at: 0).command,
        try editor.editList("authors", .quoted("Frank Herbert"), adding: true, onRecord: "#1").command,
        try editor.unset("title", onRecord: "#1").command,
        try editor.newRecord(id: "#2", [FieldAssignment("title", .word("Emma"))]).command,
        try editor.deleteRecord(at: 0).command,
      ]
      #expect(
        throws: EditError.field(.brokenRule(field: "year", message: "must be at most 2100, found 2200"))
      ) {
        try editor.set([FieldAssignment("year", .word("2200"))], at: 0)
      }
      var states = [editor.document]
      for command in commands.reversed() {
        let command = try #require(command)
        var direct: [UInt8] = []
        command.appendEncoded(to: &direct)
        #expect(direct == command.encoded().compactUTF8, "\(command.name)")
        let decoded = try Command<RunTimeRecord>(decoding: command.encoded())
        var document = states[states.count - 1]
        #expect(decoded.isRevertible(in: document), "\(command.name)")
        decoded.revert(in: &document)
        states.append(document)
      }
      // Back at the start: the one record as it was.
      #expect(
        states[states.count - 1].records == [
          RunTimeRecord(id: "#1", members: [JSONObject.Member(key: "title", value: .string("Dune"))])
        ])
    }
  }

  /// A record without a key is `#N`, N counted from 1, written as decimal digits.
  @Test(arguments: [1, 9, 10, 99, 100, 101, 1000, 65_535, 999_999, 1_000_000, 123_456_789_012_345, Int.max])
  func anOrdinalIdentityIsHashAndTheNumber(_ number: Int) {
    #expect(FieldTable<RunTimeRecord>.ordinalIdentity(number) == "#" + String(number))
  }

  /// A string key is read from its bytes, or decoded when it has an escape.
  @Test func aKeysStringIsReadWithOrWithoutEscapes() {
    let members = CustomFields([
      JSONObject.Member(key: "n", value: .number("7")),
      JSONObject.Member(key: "plain", value: .string("978-1 é")),
      JSONObject.Member(key: "escaped", value: .string("a\"b")),
    ])
    #expect(members.unescapedString("plain") == "978-1 é")
    #expect(members.unescapedString("escaped") == nil)
    #expect(members["escaped"] == .string("a\"b"))
    #expect(members.unescapedString("n") == nil)
    #expect(members.unescapedString("missing") == nil)
  }
}
