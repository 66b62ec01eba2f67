import Testing

@testable import RecordKit

/// Every undo rule of the editor (the README's and the specification's), one test each.
@Suite struct EditorUndoRulesTests {
  typealias TaskEditor = Editor<TaskRecord>

  static func editor(records: Int = 2, limit: Int = 10_000) throws -> TaskEditor {
    let records = (1...max(1, records)).prefix(records).map { index in
      var record = TaskRecord(id: "t\(index)")
      record.title = "task \(index)"
      return record
    }
    return TaskEditor(document: try Document(records: records), undoLimit: limit)
  }

  @Test func oneCommandIsOneStepAndSeveralPairsAreOneStep() throws {
    var editor = try Self.editor()
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    try editor.set(
      [FieldAssignment("title", .word("b")), FieldAssignment("priority", .word("2"))], onRecord: "t1")
    #expect(editor.history.undoCount == 2)
    #expect(try editor.undo().reverted == ["Set title, priority"])
    #expect(editor.document.records[0].title == "a")
    #expect(editor.document.records[0].priority == nil)
    #expect(try editor.undo().reverted == ["Set title"])
  }

  @Test func aNewEditAfterAnUndoDiscardsTheRedoSteps() throws {
    var editor = try Self.editor()
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    try editor.set([FieldAssignment("title", .word("b"))], onRecord: "t1")
    _ = try editor.undo()
    #expect(editor.history.canRedo)
    try editor.set([FieldAssignment("done", .word("true"))], onRecord: "t2")
    #expect(!editor.history.canRedo)
    #expect(throws: HistoryError.nothingToRedo) { try editor.redo() }
  }

  @Test func aFailedCommandChangesNothingAndKeepsRedo() throws {
    var editor = try Self.editor()
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    _ = try editor.undo()
    let before = editor.document.records
    // The first pair is valid, the second is not: neither is applied.
    #expect(throws: EditError.self) {
      try editor.set(
        [FieldAssignment("title", .word("z")), FieldAssignment("priority", .word("9"))], onRecord: "t1")
    }
    #expect(editor.document.records == before)
    #expect(editor.history.canRedo)
    #expect(editor.history.undoCount == 0)
    #expect(try editor.redo().applied == ["Set title"])
  }

  @Test func aFieldGivenTwiceIsRefused() throws {
    var editor = try Self.editor()
    #expect(throws: EditError.field(.givenTwice("title"))) {
      try editor.set(
        [FieldAssignment("title", .word("a")), FieldAssignment("title", .word("b"))], onRecord: "t1")
    }
    #expect(editor.document.records[0].title == "task 1")
  }

  @Test func aCommandThatChangesNothingRecordsNothing() throws {
    var editor = try Self.editor()
    #expect(try editor.set([FieldAssignment("title", .quoted("task 1"))], onRecord: "t1").command == nil)
    #expect(!editor.history.canUndo)
    #expect(!editor.isDirty)
    // Of several pairs only the ones that change something count, and name the step.
    try editor.set(
      [FieldAssignment("title", .quoted("task 1")), FieldAssignment("done", .word("true"))], onRecord: "t1")
    #expect(editor.history.undoName == "Set done")
  }

  @Test func undoAndRedoInsideAGroupAreErrorsNamingTheGroup() throws {
    var editor = try Self.editor()
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    editor.begin("review", origin: "plan.rsh:3")
    #expect(throws: HistoryError.groupOpen(operation: "undo", group: "'review'", origin: "plan.rsh:3")) {
      try editor.undo()
    }
    #expect(throws: HistoryError.groupOpen(operation: "redo", group: "'review'", origin: "plan.rsh:3")) {
      try editor.redo()
    }
    #expect(
      HistoryError.groupOpen(operation: "undo", group: "'review'", origin: "plan.rsh:3").description
        == "cannot undo while group 'review' (opened at plan.rsh:3) is open; "
        + "close it with 'end' or discard it with 'rollback'")
    #expect(throws: HistoryError.groupOpen(operation: "open", group: "'review'", origin: "plan.rsh:3")) {
      try editor.refuseInsideGroup("open")
    }
  }

  @Test func endOrRollbackWithoutAGroupIsAnError() throws {
    var editor = try Self.editor()
    #expect(throws: HistoryError.noOpenGroup(operation: "end")) { try editor.end() }
    #expect(throws: HistoryError.noOpenGroup(operation: "rollback")) { try editor.rollback() }
  }

  @Test func anEmptyGroupRecordsNothing() throws {
    var editor = try Self.editor()
    editor.begin("nothing")
    editor.begin(nil)
    #expect(try editor.end().command == nil)
    #expect(try editor.end().command == nil)
    #expect(!editor.history.canUndo)
  }

  @Test func closingTheOutermostGroupMakesOneStepNamedByTheGroup() throws {
    var editor = try Self.editor()
    editor.begin("plan")
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    editor.begin(nil)
    try editor.set([FieldAssignment("done", .word("true"))], onRecord: "t2")
    try editor.deleteRecord(at: 0)
    try editor.end()
    #expect(editor.history.undoCount == 0, "the inner group is part of the outer one")
    try editor.end()
    #expect(editor.history.undoCount == 1)
    #expect(editor.history.undoName == "plan")
    #expect(try editor.undo().reverted == ["plan"])
    #expect(editor.document.records.map(\.id) == ["t1", "t2"])
    #expect(editor.document.records[0].title == "task 1")
    #expect(editor.document.records[1].done == nil)
  }

  @Test func anUnnamedGroupIsNamedByItsChangeCount() throws {
    var editor = try Self.editor()
    editor.begin(nil)
    try editor.set(
      [FieldAssignment("title", .word("a")), FieldAssignment("done", .word("true"))], onRecord: "t1")
    try editor.set([FieldAssignment("title", .word("b"))], onRecord: "t2")
    try editor.end()
    #expect(editor.history.undoName == "3 changes")
  }

  @Test func rollbackRevertsTheInnermostGroupOnly() throws {
    var editor = try Self.editor()
    editor.begin("outer")
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    editor.begin("inner")
    try editor.set([FieldAssignment("title", .word("b"))], onRecord: "t1")
    try editor.newRecord(id: "t3", [])
    let (group, reverted) = try editor.rollback()
    #expect(group.name == "inner")
    #expect(reverted == 2)
    #expect(editor.document.records.map(\.title) == ["a", "task 2"])
    try editor.end()
    #expect(editor.history.undoName == "outer")
  }

  @Test func endOfInputClosesAndKeepsOpenGroups() throws {
    var editor = try Self.editor()
    editor.begin("outer", origin: "<stdin>:1")
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    editor.begin("inner", origin: "<stdin>:3")
    try editor.set([FieldAssignment("title", .word("b"))], onRecord: "t2")
    let closed = editor.closeAllGroups()
    #expect(closed.map(\.name) == ["outer", "inner"])
    #expect(closed.map(\.origin) == ["<stdin>:1", "<stdin>:3"])
    #expect(editor.history.openGroups.isEmpty)
    #expect(editor.document.records.map(\.title) == ["a", "b"])
    #expect(try editor.undo().reverted == ["outer"])
    #expect(editor.document.records.map(\.title) == ["task 1", "task 2"])
  }

  @Test func undoingADeletePutsTheWholeRecordBackInPlace() throws {
    var record = TaskRecord(id: "mid")
    record.title = "middle"
    record.tags = ["x"]
    record.due = .value(try #require(ISODate("2026-12-01")))
    record.custom = CustomFields([.init(key: "color", value: .string("red"))])
    var editor = TaskEditor(
      document: try Document(records: [TaskRecord(id: "a"), record, TaskRecord(id: "b")]))
    try editor.deleteRecord(at: 1)
    #expect(editor.document.records.map(\.id) == ["a", "b"])
    #expect(try editor.undo().reverted == ["Delete record"])
    #expect(editor.document.records[1] == record)
    #expect(editor.document.position(ofID: "b") == 2)
  }

  @Test func newRecordIsOneStepWithItsFields() throws {
    var editor = try Self.editor()
    try editor.newRecord(
      id: "n1", [FieldAssignment("title", .quoted("new")), FieldAssignment("priority", .word("1"))])
    #expect(editor.document.records.last?.priority == 1)
    #expect(editor.history.undoName == "New record")
    #expect(throws: EditError.self) {
      try editor.newRecord(id: "n2", [FieldAssignment("priority", .word("8"))])
    }
    #expect(editor.document.count == 3)
    #expect(throws: EditError.duplicateID("n1")) { try editor.newRecord(id: "n1", []) }
    _ = try editor.undo()
    #expect(editor.document.count == 2)
  }

  @Test func undoNWithFewerStepsUndoesThemAllAndSaysHowMany() throws {
    var editor = try Self.editor()
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    try editor.set([FieldAssignment("title", .word("b"))], onRecord: "t2")
    #expect(try editor.undo(5).reverted == ["Set title", "Set title"])
    #expect(throws: HistoryError.nothingToUndo) { try editor.undo() }
    #expect(try editor.redo(5).applied.count == 2)
    #expect(throws: HistoryError.nothingToRedo) { try editor.redo(1) }
  }

  @Test func theLimitDropsTheOldestStepsFirst() throws {
    var editor = try Self.editor(limit: 3)
    for index in 1...5 {
      try editor.set([FieldAssignment("priority", .word("\(index)"))], onRecord: "t1")
    }
    #expect(editor.history.undoCount == 3)
    #expect(editor.history.droppedCount == 2)
    #expect(editor.history.keptSteps.map(\.number) == [3, 4, 5])
    _ = try editor.undo(10)
    #expect(editor.document.records[0].priority == 2, "the state before the oldest kept step")
  }

  @Test func aLimitOfZeroKeepsEverything() throws {
    var editor = try Self.editor(limit: 0)
    for index in 0..<20_005 {
      try editor.set([FieldAssignment("priority", .word("\(index % 2)"))], onRecord: "t1")
    }
    #expect(editor.history.undoCount == 20_005)
  }

  @Test func theDefaultLimitIsTenThousandStepsAndDroppingStaysCheap() throws {
    var editor = try Self.editor()
    #expect(editor.history.limit == 10_000)
    for index in 0..<30_000 {
      try editor.set([FieldAssignment("priority", .word("\(index % 3)"))], onRecord: "t1")
    }
    #expect(editor.history.undoCount == 10_000)
    #expect(editor.history.droppedCount == 20_000)
    #expect(editor.history.keptSteps.first?.number == 20_001)
  }

  @Test func theSavePointIsCleanAgainWhenUndoAndRedoReturnToIt() throws {
    var editor = try Self.editor()
    #expect(!editor.isDirty)
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    #expect(editor.isDirty)
    editor.markSaved()
    #expect(!editor.isDirty)
    try editor.set([FieldAssignment("title", .word("b"))], onRecord: "t1")
    #expect(editor.isDirty)
    _ = try editor.undo()
    #expect(!editor.isDirty)
    _ = try editor.undo()
    #expect(editor.isDirty, "undoing past the save point")
    _ = try editor.redo()
    #expect(!editor.isDirty, "redoing back to it")
  }

  /// A new edit after an undo starts a branch: the saved state stays reachable with `goto`.
  @Test func aNewBranchKeepsTheSavedStateReachable() throws {
    var editor = try Self.editor()
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    editor.markSaved()
    _ = try editor.undo()
    try editor.set([FieldAssignment("title", .word("c"))], onRecord: "t1")
    _ = try editor.undo()
    #expect(editor.isDirty)
    #expect(editor.history.savedState == 1)
    #expect(try editor.redo().applied == ["Set title"])
    #expect(editor.document.records[0].title == "c", "redo follows the new edit")
    let move = try editor.goto(1)
    #expect(move.revertedCount == 1 && move.appliedCount == 1)
    #expect(!editor.isDirty)
    #expect(editor.document.records[0].title == "a")
  }

  @Test func anOpenGroupWithChangesIsDirty() throws {
    var editor = try Self.editor()
    editor.begin("g")
    #expect(!editor.isDirty)
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    #expect(editor.isDirty)
    try editor.rollback()
    #expect(!editor.isDirty)
  }

  @Test func stepsCarryTheirTimestamps() throws {
    var editor = try Self.editor()
    editor.clock = { 1_790_000_000 }
    try editor.set([FieldAssignment("title", .word("a"))], onRecord: "t1")
    #expect(editor.history.keptSteps.map(\.time) == [1_790_000_000])
    #expect(editor.history.redoName == nil)
    _ = try editor.undo()
    #expect(editor.history.redoName == "Set title")
  }

  /// Times are kept to the second, once per second: steps recorded after an undo
  /// keep the undone steps (a branch) and their times, and steps the limit drops take
  /// theirs along: first the start moves along the current branch, then the side branch goes.
  @Test func stepTimesSurviveUndoNewStepsAndTheLimit() throws {
    var editor = try Self.editor()
    var now = 0.0
    editor.clock = { [now] in now }
    func step(at time: Double, _ title: String) throws {
      now = time
      editor.clock = { [now] in now }
      try editor.set([FieldAssignment("title", .word(title))], onRecord: "t1")
    }
    try step(at: 10.2, "a")
    try step(at: 10.7, "b")
    try step(at: 11.0, "c")
    try step(at: 12.5, "d")
    #expect(editor.history.keptSteps.map(\.time) == [10, 10, 11, 12])
    _ = try editor.undo(2)
    try step(at: 12.9, "e")
    #expect(editor.history.keptSteps.map(\.time) == [10, 10, 11, 12, 12])
    #expect(editor.history.keptSteps.map(\.parent) == [0, 1, 2, 3, 2])
    try step(at: 13.1, "f")
    editor.setUndoLimit(2)
    #expect(editor.history.keptSteps.map(\.number) == [5, 6])
    #expect(editor.history.keptSteps.map(\.time) == [12, 13])
    for index in 0..<5000 { try step(at: 20 + Double(index) / 1000, "g\(index)") }
    #expect(editor.history.keptSteps.map(\.time) == [24, 24])
    _ = try editor.undo(2)
    editor.setUndoLimit(1)
    #expect(editor.history.keptSteps.map(\.time) == [24])
  }

  @Test func editsOfAMissingRecordAreRefused() throws {
    var editor = try Self.editor()
    #expect(throws: EditError.noSuchRecord("zz")) {
      try editor.set([FieldAssignment("title", .word("a"))], onRecord: "zz")
    }
    #expect(throws: EditError.noSuchPosition(7)) { try editor.deleteRecord(at: 7) }
  }
}
