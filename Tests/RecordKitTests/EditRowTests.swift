import Testing

@testable import RecordKit

/// A one-field `set` written straight into a history row (`Editor.set` through
/// `FieldAccessor.applySet(_:in:numbered:into:)`, no edit object) against the same edit made
/// as an object and performed (`FieldAccessor.makeSet`, `Editor.perform`): the same
/// document, the same log encoding, the same step names, the same undo and redo, as a
/// step of its own and inside a group past `CommandList.compactionThreshold`.
@Suite struct EditRowTests {
  static let fields = ["title", "priority", "done", "due", "tags", "detail"]

  /// A random token for `field`: mostly valid, now and then one the field refuses or the
  /// value the record already holds.
  static func token(for field: String, _ g: inout SplitMix64) -> ValueToken {
    switch (field, g.int(10)) {
    case (_, 0): return .word("not-a-\(field)")
    case ("title", _), ("detail", _):
      return .quoted(["a", "b", "é \(g.int(4))", "line\nbreak"].pick(using: &g))
    case ("priority", _): return .word(String(g.int(7)))
    case ("done", _): return .word(["true", "false"].pick(using: &g))
    case ("due", _): return .word(["2026-12-0\(g.int(9) + 1)", "null"].pick(using: &g))
    default: return .word("x\(g.int(3))")
    }
  }

  /// The edit `set` makes, as an object, on `editor`'s record at `position` (`nil`: no change).
  static func objectEdit(_ editor: Editor<TaskRecord>, _ field: String, _ token: ValueToken, at position: Int)
    throws -> (any FieldEdit<TaskRecord>)?
  {
    let accessor = try #require(TaskRecord.fields.declaredField(named: field))
    return try accessor.makeSet(
      token, for: editor.document.records[position], numbered: editor.document.number(at: position))
  }

  @Test(arguments: [false, true]) func aRowIsTheEditItStandsFor(inGroup: Bool) throws {
    var g = SplitMix64(seed: inGroup ? 31 : 30)
    let records = (0..<12).map { TaskRecord(id: "t\($0)") }
    var byRow = Editor<TaskRecord>(document: try Document(records: records), undoLimit: 0)
    var byObject = byRow
    if inGroup {
      byRow.begin("g")
      byObject.begin("g")
    }
    var rowsSeen = 0
    for index in 0..<400 {
      let field = Self.fields.pick(using: &g)
      let token = Self.token(for: field, &g)
      let position = g.int(records.count)
      let expected: (any FieldEdit<TaskRecord>)?
      do {
        expected = try Self.objectEdit(byObject, field, token, at: position)
      } catch let error as FieldError {
        // Refused as an object: refused as a row too, with the same error, and nothing changed.
        let before = (byRow.document.records, byRow.history.nextNumber, byRow.pendingChangeCount)
        #expect(throws: EditError.field(error)) {
          try byRow.set([FieldAssignment(field, token)], at: position)
        }
        #expect(before == (byRow.document.records, byRow.history.nextNumber, byRow.pendingChangeCount))
        continue
      }
      let outcome = try byRow.set([FieldAssignment(field, token)], at: position)
      guard let expected else {
        guard case .unchanged = outcome else {
          Issue.record("edit \(index): a set to the value held made \(outcome)")
          return
        }
        continue
      }
      let performed = byObject.perform(.edit(expected))
      // What the log records: the same bytes, from the row's typed values.
      var (rowBytes, objectBytes) = ([UInt8](), [UInt8]())
      switch (outcome, performed) {
      case (.recorded(let row, let step), .recorded(let object, let objectStep)) where !inGroup:
        #expect(step == objectStep, "edit \(index)")
        row.appendEncoded(to: &rowBytes)
        object.appendEncoded(to: &objectBytes)
      case (.grouped(let row), .grouped(let object)) where inGroup:
        row.appendEncoded(to: &rowBytes)
        object.appendEncoded(to: &objectBytes)
      default:
        Issue.record("edit \(index): the row's outcome \(outcome), the object's \(performed)")
        return
      }
      #expect(rowBytes == objectBytes, "edit \(index): \(String(decoding: rowBytes, as: UTF8.self))")
      // Both are the command's encoding, as the tree encoder spells it (an absent old value
      // as `[]`: a field the record did not have).
      #expect(rowBytes == performed.command?.encoded().compactUTF8, "edit \(index)")
      #expect(outcome.command?.encoded() == performed.command?.encoded(), "edit \(index)")
      #expect(byRow.document.records == byObject.document.records, "edit \(index)")
      rowsSeen += 1
    }
    #expect(rowsSeen > 200)
    if inGroup {
      let group = try #require(byRow.openGroups.last)
      #expect(group.commands.isCompacted)
      // Every edit past the threshold is a row of the group's store.
      let rows = (0..<group.commands.count).filter { group.commands.rowRecord(at: $0) != nil }.count
      #expect(rows >= group.commands.count - CommandList<TaskRecord>.compactionThreshold - 1)
      try byRow.end()
      try byObject.end()
    }
    // The histories name, undo and redo their steps alike.
    #expect(byRow.history.keptSteps.map(\.command.name) == byObject.history.keptSteps.map(\.command.name))
    #expect(
      byRow.history.keptSteps.map { $0.command.encoded() }
        == byObject.history.keptSteps.map { $0.command.encoded() })
    let steps = byRow.history.undoCount
    for count in [1, steps / 2, steps] where count > 0 {
      _ = try byRow.undo(count)
      _ = try byObject.undo(count)
      #expect(byRow.document.records == byObject.document.records, "undo \(count)")
      _ = try byRow.redo(count)
      _ = try byObject.redo(count)
      #expect(byRow.document.records == byObject.document.records, "redo \(count)")
    }
    _ = try byRow.goto(0)
    #expect(byRow.document.records == records)
  }

  /// A step kept as a row is found by record (`log`, `blame`) as its object was.
  @Test func aRowStepIsIndexedByItsRecord() throws {
    var editor = Editor<TaskRecord>(document: try Document(records: (0..<3).map { TaskRecord(id: "t\($0)") }))
    try editor.set([FieldAssignment("title", .quoted("a"))], at: 1)
    try editor.set([FieldAssignment("priority", .word("2"))], at: 0)
    try editor.set([FieldAssignment("priority", .word("3"))], at: 1)
    #expect(editor.steps(touching: editor.document.number(at: 1)) == [3, 1])
    #expect(editor.steps(touching: editor.document.number(at: 0)) == [2])
    #expect(editor.steps(touching: editor.document.number(at: 2)) == [])
  }

  /// A trial copy of the editor (`preview`) shares the store's columns: a row written into
  /// the copy leaves the original's rows as they were.
  @Test func aRowWrittenIntoACopyLeavesTheOriginalAlone() throws {
    var editor = Editor<TaskRecord>(document: try Document(records: (0..<3).map { TaskRecord(id: "t\($0)") }))
    try editor.set([FieldAssignment("priority", .word("1"))], at: 0)
    var copy = editor
    try copy.set([FieldAssignment("priority", .word("4"))], at: 0)
    try copy.set([FieldAssignment("priority", .word("5"))], at: 2)
    #expect(editor.history.keptCount == 1 && copy.history.keptCount == 3)
    _ = try editor.undo()
    #expect(editor.document.records[0].priority == nil)
    _ = try editor.redo()
    #expect(editor.document.records[0].priority == 1)
    _ = try copy.undo(2)
    #expect(copy.document.records[0].priority == 1 && copy.document.records[2].priority == nil)
  }
}
