import Testing

@testable import RecordKit

/// Nested fields through composed key paths, custom fields through the
/// subscript key path, and absent-is-not-empty.
@Suite struct KeyPathFieldTests {
  @Test func nestedContactFieldIsAComposedKeyPath() throws {
    let field = try #require(
      ContactRecord.fields.field(named: "address.city") as? KeyPathField<ContactRecord, TextCodec>)
    let composed = (\ContactRecord.address).appending(path: \Address.city)
    #expect(field.keyPath == composed)
  }

  /// A file's value read back and compared with the record's in place: the same value in
  /// another spelling holds, another value does not, a value that does not fit is `nil`.
  @Test func aValueReadBackIsComparedWithTheRecordsInPlace() throws {
    var record = TaskRecord(id: "t1")
    record.title = "café"
    record.priority = 3
    let title = try #require(TaskRecord.fields.field(named: "title"))
    let priority = try #require(TaskRecord.fields.field(named: "priority"))
    let id = try #require(TaskRecord.fields.field(named: "id"))
    func holds(_ field: any FieldAccessor<TaskRecord>, _ text: String) -> Bool? {
      Array(text.utf8).withUnsafeBufferPointer { bytes in
        var reader = JSONReader(unsafeBytes: bytes)
        return withUnsafePointer(to: record) { field.holdsValue(readFrom: &reader, in: $0) }
      }
    }
    #expect(holds(title, #""caf\u00e9""#) == true)
    #expect(holds(title, #""cafe\u0301""#) == false, "another normalization is another value")
    #expect(holds(title, #""tea""#) == false)
    #expect(holds(title, "5") == nil)
    #expect(holds(priority, "3") == true)
    #expect(holds(priority, "4") == false)
    #expect(holds(priority, "9") == nil, "out of the field's range")
    #expect(holds(id, #""t1""#) == nil, "an id is not read back")
    record.title = nil
    #expect(holds(title, #""café""#) == false, "the record lacks the field")
  }

  @Test func customFieldIsTheSubscriptKeyPath() {
    let field = FieldTable<TaskRecord>.custom("color")
    var record = TaskRecord(id: "t1")
    record[keyPath: field.keyPath] = CustomValue(.string("red"))
    #expect(record.custom["color"] == .string("red"))
    #expect(record[keyPath: \TaskRecord.custom[positioned: "color"]]?.position == 0)
    #expect(field.isCustom)
  }

  @Test func editingANestedFieldChangesOnlyThatMember() throws {
    var editor = Editor<ContactRecord>(document: try Document(records: [ContactRecord(id: "c1")]))
    try editor.set([FieldAssignment("address.city", .word("Lyon"))], onRecord: "c1")
    let record = editor.document.records[0]
    #expect(record.address.city == "Lyon")
    #expect(record.address.street == nil)
    _ = try editor.undo()
    #expect(editor.document.records[0].address.city == nil)
  }

  @Test func customFieldsAreEditedByTheSameCommandAndKeepTheirOrder() throws {
    var record = TaskRecord(id: "t1")
    record.custom = CustomFields([.init(key: "a", value: .number("1")), .init(key: "b", value: .string("x"))])
    var editor = Editor<TaskRecord>(document: try Document(records: [record]))
    try editor.set([FieldAssignment("a", .word("2"))], onRecord: "t1")
    #expect(editor.document.records[0].custom.members.map(\.key) == ["a", "b"])
    #expect(editor.document.records[0].custom["a"] == .number("2"))
    try editor.unset("a", onRecord: "t1")
    #expect(editor.document.records[0].custom.keys == ["b"])
    _ = try editor.undo()
    #expect(editor.document.records[0].custom.keys == ["a", "b"], "undo puts the key back in its place")
  }

  @Test func aTypoOfADeclaredFieldSuggestsItAndCreatesNothing() throws {
    var editor = Editor<TaskRecord>(document: try Document(records: [TaskRecord(id: "t1")]))
    #expect(throws: EditError.field(.unknownField("titel", suggestion: "title"))) {
      try editor.set([FieldAssignment("titel", .word("x"))], onRecord: "t1")
    }
    #expect(editor.document.records[0] == TaskRecord(id: "t1"))
    #expect(!editor.history.canUndo)
  }

  @Test func aNewCustomFieldNeedsTheExplicitForm() throws {
    var editor = Editor<TaskRecord>(document: try Document(records: [TaskRecord(id: "t1")]))
    try editor.set([FieldAssignment("color", .word("red"), createsCustomField: true)], onRecord: "t1")
    #expect(editor.document.records[0].custom["color"] == .string("red"))
    #expect(editor.history.undoName == "Set color")
    #expect(throws: EditError.field(.customFieldExists("color"))) {
      try editor.set([FieldAssignment("color", .word("blue"), createsCustomField: true)], onRecord: "t1")
    }
    #expect(throws: EditError.field(.customFieldExists("title"))) {
      try editor.set([FieldAssignment("title", .word("x"), createsCustomField: true)], onRecord: "t1")
    }
    #expect(throws: EditError.field(.invalidCustomName("a b"))) {
      try editor.set([FieldAssignment("a b", .word("x"), createsCustomField: true)], onRecord: "t1")
    }
  }

  @Test func anAbsentFieldStaysAbsentUntilSet() throws {
    let record = TaskRecord(id: "t1")
    let encoded = TaskRecord.fields.encode(record)
    #expect(encoded.keys == ["id"])
    var withEmpty = record
    withEmpty.title = ""
    #expect(TaskRecord.fields.encode(withEmpty).keys == ["id", "title"], "empty is not absent")
  }

  @Test func listElementsAreAddedAndRemovedOneAtATime() throws {
    var editor = Editor<TaskRecord>(document: try Document(records: [TaskRecord(id: "t1")]))
    try editor.editList("tags", .word("home"), adding: true, onRecord: "t1")
    try editor.editList("tags", .quoted("at work"), adding: true, onRecord: "t1")
    #expect(editor.document.records[0].tags == ["home", "at work"])
    #expect(
      try editor.editList("tags", .word("home"), adding: true, onRecord: "t1").command == nil, "already there"
    )
    #expect(editor.history.undoName == "Add to tags")
    #expect(throws: EditError.field(.elementMissing(field: "tags", element: "gym"))) {
      try editor.editList("tags", .word("gym"), adding: false, onRecord: "t1")
    }
    try editor.editList("tags", .word("home"), adding: false, onRecord: "t1")
    #expect(editor.document.records[0].tags == ["at work"])
    #expect(editor.history.undoName == "Remove from tags")
    #expect(throws: EditError.field(.notAList("title"))) {
      try editor.editList("title", .word("x"), adding: true, onRecord: "t1")
    }
    // An element is the same by its bytes, as a filter's `tags=x` finds it: another
    // Unicode normalization is another element (compared as bytes: Swift's `==` finds
    // the two equal).
    try editor.editList("tags", .word("cafe\u{301}"), adding: true, onRecord: "t1")
    try editor.editList("tags", .word("caf\u{e9}"), adding: true, onRecord: "t1")
    let tags = try #require(editor.document.records[0].tags)
    #expect(tags.map { Array($0.utf8) } == ["at work", "cafe\u{301}", "caf\u{e9}"].map { Array($0.utf8) })
    try editor.editList("tags", .word("cafe\u{301}"), adding: false, onRecord: "t1")
    let left = try #require(editor.document.records[0].tags)
    #expect(left.map { Array($0.utf8) } == ["at work", "caf\u{e9}"].map { Array($0.utf8) })
  }

  @Test func unsetIsForOptionalAndCustomFields() throws {
    var record = TaskRecord(id: "t1")
    record.title = "x"
    record.due = .null
    var editor = Editor<TaskRecord>(document: try Document(records: [record]))
    #expect(throws: EditError.field(.notOptional("title"))) { try editor.unset("title", onRecord: "t1") }
    try editor.unset("due", onRecord: "t1")
    #expect(editor.document.records[0].due == nil)
    #expect(editor.history.undoName == "Unset due")
    #expect(try editor.unset("due", onRecord: "t1").command == nil, "already absent: nothing recorded")
  }

  @Test func suggestionsAreOfferedOnlyForPlausibleTypos() {
    let names = TaskRecord.fields.fields.map(\.name)
    #expect(Suggestion.closest(to: "titel", among: names) == "title")
    #expect(Suggestion.closest(to: "prio", among: names) == nil)
    #expect(Suggestion.closest(to: "priorty", among: names) == "priority")
    #expect(Suggestion.closest(to: "Done", among: names) == "done")
    #expect(Suggestion.closest(to: "xyz", among: names) == nil)
  }
}

/// `FieldAccessor.sameValue(in:and:)`, which a save asks before encoding a changed
/// record's declared fields: it must answer as the comparison of the fields' JSON does.
@Suite struct SameValueTests {
  @Test func eachDeclaredFieldTellsItsOwnChangeOnly() throws {
    var base = TaskRecord(id: "t1")
    base.title = "Plan"
    base.priority = 2
    base.tags = ["a"]
    base.due = .value(try #require(ISODate("2026-12-01")))
    var edits: [String: TaskRecord] = [:]
    var record = base
    record.title = "Ship"
    edits["title"] = record
    record = base
    record.detail = "more"
    edits["detail"] = record
    record = base
    record.done = false
    edits["done"] = record
    record = base
    record.priority = nil
    edits["priority"] = record
    record = base
    record.tags = ["a", "b"]
    edits["tags"] = record
    record = base
    record.due = .null
    edits["due"] = record
    for field in TaskRecord.fields.fields where field.name != "id" {
      let edited = try #require(edits[field.name], "\(field.name) has an edit in this test")
      for other in TaskRecord.fields.fields where other.name != "id" {
        let same = other.sameValue(in: base, and: edited)
        #expect(same == (other.json(in: base) == other.json(in: edited)), "\(other.name) after \(field.name)")
        #expect(same == (other.name != field.name), "\(other.name) after an edit of \(field.name)")
      }
      #expect(field.sameValue(in: edited, and: edited))
    }
    #expect(edits.count == 6, "every declared field but the key was edited once")
  }

  @Test func theKeyComparesByItsString() {
    let id = IDField<TaskRecord>()
    #expect(id.sameValue(in: TaskRecord(id: "a"), and: TaskRecord(id: "a")))
    #expect(!id.sameValue(in: TaskRecord(id: "a"), and: TaskRecord(id: "b")))
  }
}
