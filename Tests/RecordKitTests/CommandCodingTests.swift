import Testing

@testable import RecordKit

/// Commands as plain data: encode, decode through the field table, and the
/// decoded command does the same thing as the original.
@Suite struct CommandCodingTests {
  static func sample() throws -> Editor<TaskRecord> {
    var record = TaskRecord(id: "t1")
    record.title = "old"
    record.custom = CustomFields([.init(key: "n", value: .number("1.50"))])
    return Editor(document: try Document(records: [record, TaskRecord(id: "t2")]))
  }

  /// Runs `make` on an editor, encodes the command it made, decodes it, and
  /// checks the decoded command reverts and re-applies to the same states.
  func roundTrip(_ make: (inout Editor<TaskRecord>) throws -> EditOutcome<TaskRecord>) throws {
    try roundTrip { (editor: inout Editor<TaskRecord>) throws -> Command<TaskRecord>? in
      try make(&editor).command
    }
  }

  func roundTrip(_ make: (inout Editor<TaskRecord>) throws -> GroupClosing<TaskRecord>) throws {
    try roundTrip { (editor: inout Editor<TaskRecord>) throws -> Command<TaskRecord>? in
      try make(&editor).command
    }
  }

  func roundTrip(_ make: (inout Editor<TaskRecord>) throws -> Command<TaskRecord>?) throws {
    var editor = try Self.sample()
    let before = editor.document
    let command = try #require(try make(&editor))
    let after = editor.document
    let encoded = command.encoded()
    // The journal's direct encoder writes the same bytes as the tree.
    var direct: [UInt8] = []
    command.appendEncoded(to: &direct)
    #expect(direct == encoded.compactUTF8)
    let decoded = try Command<TaskRecord>(decoding: encoded)
    #expect(decoded.encoded() == encoded)
    #expect(decoded.name == command.name)
    var document = after
    decoded.revert(in: &document)
    #expect(document.records == before.records)
    decoded.apply(to: &document)
    #expect(document.records == after.records)
  }

  @Test func setOfOneFieldRoundTrips() throws {
    try roundTrip { try $0.set([FieldAssignment("title", .word("new"))], onRecord: "t1") }
  }

  @Test func setOfSeveralFieldsRoundTrips() throws {
    try roundTrip {
      try $0.set(
        [
          FieldAssignment("due", .word("2026-12-01")), FieldAssignment("tags", .list([.word("a")])),
          FieldAssignment("done", .word("false")), FieldAssignment("priority", .word("4")),
        ], onRecord: "t2")
    }
  }

  @Test func customFieldEditsRoundTrip() throws {
    try roundTrip { try $0.set([FieldAssignment("n", .word("2e3"))], onRecord: "t1") }
    try roundTrip { try $0.unset("n", onRecord: "t1") }
    try roundTrip {
      try $0.set([FieldAssignment("c", .quoted("x"), createsCustomField: true)], onRecord: "t2")
    }
  }

  @Test func listEditsRoundTrip() throws {
    try roundTrip { try $0.editList("tags", .word("x"), adding: true, onRecord: "t1") }
  }

  @Test func insertAndDeleteRoundTripWithTheWholeRecord() throws {
    try roundTrip { try $0.newRecord(id: "t3", [FieldAssignment("title", .quoted("n"))]) }
    try roundTrip { try $0.deleteRecord(at: 0) }
  }

  /// A bulk edit of every record: both records, one holding the field and one not, so
  /// that old values absent and present are both encoded.
  @Test func bulkEditsRoundTrip() throws {
    let both = [0, 1]
    try roundTrip { editor in
      let title = try editor.bulkField("title", createsCustom: false)
      return try editor.bulkEdit([(title, .set(.quoted("same")))], at: both)
    }
    try roundTrip { editor in
      let fields = (
        try editor.bulkField("priority", createsCustom: false),
        try editor.bulkField("due", createsCustom: false)
      )
      return try editor.bulkEdit([(fields.0, .set(.word("5"))), (fields.1, .set(.word("null")))], at: both)
    }
    try roundTrip { editor in
      try editor.bulkEdit([(try editor.bulkField("tags", createsCustom: false), .add(.word("z")))], at: both)
    }
    try roundTrip { editor in
      try editor.bulkEdit([(try editor.bulkField("n", createsCustom: false), .unset)], at: both)
    }
    try roundTrip { editor in
      try editor.bulkEdit([(try editor.bulkField("c", createsCustom: true), .set(.word("1e2")))], at: both)
    }
    try roundTrip { try $0.deleteRecords(at: [0, 1]) }
    try roundTrip { try $0.deleteRecords(at: [1]) }
  }

  @Test func groupsRoundTripNested() throws {
    try roundTrip { editor in
      editor.begin("g")
      try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
      editor.begin(nil)
      try editor.deleteRecord(at: 1)
      try editor.end()
      return try editor.end()
    }
  }

  @Test func directEncodingMatchesTheTreeForEveryKindOfCommand() throws {
    var editor = try Self.sample()
    var commands: [Command<TaskRecord>] = []
    func add(_ outcome: EditOutcome<TaskRecord>) {
      if let command = outcome.command { commands.append(command) }
    }
    func add(_ closing: GroupClosing<TaskRecord>) {
      if let command = closing.command { commands.append(command) }
    }
    add(try editor.set([FieldAssignment("title", .quoted("q\"uote\\ café 👍🏽\n"))], onRecord: "t1"))
    add(
      try editor.set(
        [FieldAssignment("priority", .word("3")), FieldAssignment("due", .word("2026-12-01"))], onRecord: "t2"
      ))
    add(try editor.set([FieldAssignment("due", .word("null"))], onRecord: "t2"))
    add(try editor.unset("n", onRecord: "t1"))
    add(try editor.set([FieldAssignment("c", .quoted("x"), createsCustomField: true)], onRecord: "t2"))
    add(try editor.editList("tags", .word("x"), adding: true, onRecord: "t1"))
    add(try editor.editList("tags", .word("x"), adding: false, onRecord: "t1"))
    add(try editor.set([FieldAssignment("title", .quoted("tab\t \"q\" \\ é"))], onRecord: "t1"))
    add(try editor.newRecord(id: "t3", [FieldAssignment("title", .quoted("n"))]))
    add(try editor.deleteRecord(at: 0))
    editor.begin("named \"group\"")
    _ = try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t2")
    editor.begin(nil)
    _ = try editor.set([FieldAssignment("done", .word("true"))], onRecord: "t2")
    _ = try editor.end()
    add(try editor.end())
    #expect(commands.count == 11)
    for command in commands {
      var direct: [UInt8] = []
      command.appendEncoded(to: &direct)
      #expect(String(decoding: direct, as: UTF8.self) == command.encoded().compactText)
    }
  }

  @Test(arguments: [0, 1, -1, 9, 10, -10, 12_345, Int.max, Int.min, Int.max - 1, Int.min + 1])
  func decimalsAreSpelledAsStringSpellsThem(value: Int) {
    var bytes: [UInt8] = [UInt8(ascii: "x")]
    JSONValue.appendDecimal(value, to: &bytes)
    #expect(bytes == Array(("x" + String(value)).utf8))
  }

  @Test func theEncodingIsReadablePlainData() throws {
    var editor = try Self.sample()
    let command = try #require(
      try editor.set([FieldAssignment("title", .word("new"))], onRecord: "t1").command)
    #expect(command.encoded().compactText == #"["set", 0, "title", ["old"], ["new"]]"#)
    let unset = try #require(try editor.unset("n", onRecord: "t1").command)
    #expect(unset.encoded().compactText == #"["unset", 0, ["n"], [{"value": 1.50, "at": 0}], []]"#)
  }

  /// Logs of format 2 hold each edit as an object: read back as the list form is.
  @Test func anEditWrittenAsAnObjectReadsBackTheSame() throws {
    var editor = try Self.sample()
    let command = try #require(
      try editor.set([FieldAssignment("title", .word("new"))], onRecord: "t1").command)
    let object = try JSONValue.parse(
      bytes: Array(#"{"op": "set", "record": 0, "field": "title", "old": "old", "new": "new"}"#.utf8))
    #expect(try Command<TaskRecord>(decoding: object).encoded() == command.encoded())
    let custom = try JSONValue.parse(
      bytes: Array(#"{"op": "set", "record": 0, "custom": "c", "new": {"value": 5, "at": 0}}"#.utf8))
    #expect(
      try Command<TaskRecord>(decoding: custom).encoded().compactText
        == #"["set", 0, ["c"], [], [{"value": 5, "at": 0}]]"#)
  }

  @Test(arguments: [
    #"["set", 0, "title"]"#, #"["nope", 0, "title", [], ["x"]]"#, #"["set", -1, "title", [], ["x"]]"#,
    #"["set", 0, 7, [], ["x"]]"#, #"["set", 0, ["a", "b"], [], ["x"]]"#,
    #"["set", 0, "title", ["a", "b"], []]"#,
    #"["set", 0, "title", "a", []]"#, #"["set", 0, "nosuchfield", [], ["x"]]"#,
  ])
  func aMalformedEditListIsRefused(_ text: String) throws {
    let json = try JSONValue.parse(bytes: Array(text.utf8))
    #expect(throws: CommandDecodingError.self) { _ = try Command<TaskRecord>(decoding: json) }
  }

  static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue { .object(JSONObject(pairs)) }

  static let invalid: [(JSONValue, String)] = [
    (
      object([
        "op": .string("set"), "record": .number("0"), "field": .string("priority"), "new": .number("9"),
      ]),
      "field 'priority': expected an integer 0–5, found 9"
    ),
    (
      object(["op": .string("set"), "record": .number("0"), "field": .string("nope"), "new": .number("1")]),
      "unknown field 'nope' (see 'fields'; 'set +nope VALUE' creates a custom field)"
    ),
    (
      object(["op": .string("set"), "record": .number("0"), "field": .string("id"), "new": .string("x")]),
      "field 'id' is read-only"
    ),
    (object(["op": .string("fly")]), "malformed command: unknown command \"op\""),
    (
      .array([.number("1")]),
      "malformed command: an edit's list needs an action, a record, a field, its old and its new value"
    ),
    (.string("x"), "malformed command: a command must be an object with an \"op\", or an edit's list"),
    (
      object([
        "op": .string("insert"), "at": .number("0"), "number": .number("3"),
        "record": object(["title": .string("x")]),
      ]),
      "no \"id\""
    ),
    (
      object(["op": .string("insert"), "at": .number("0"), "record": object(["id": .string("x")])]),
      "malformed command: \"insert\" needs a record \"number\""
    ),
    (
      object(["op": .string("set"), "id": .string("t1"), "field": .string("title"), "new": .string("x")]),
      "malformed command: an edit needs a \"record\" number"
    ),
    (
      object(["op": .string("delete"), "record": object(["id": .string("x")])]),
      "malformed command: \"delete\" needs a position \"at\""
    ),
  ]

  @Test(arguments: invalid)
  func invalidEncodingsAreRefusedWithAReason(value: JSONValue, message: String) throws {
    #expect(throws: CommandDecodingError.self) { try Command<TaskRecord>(decoding: value) }
    do {
      _ = try Command<TaskRecord>(decoding: value)
    } catch {
      #expect(error.description == message)
    }
  }
}
