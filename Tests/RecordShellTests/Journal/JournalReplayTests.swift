import Testing

@testable import RecordKit
@testable import RecordShell

/// Reading a history log back into an undo tree: steps placed where the log made them,
/// moves followed, saves noted; entries that do not fit the tree are refused by record.
@Suite struct JournalReplayTests {
  static let header = #"{"header": {"format": 2, "base": null, "pid": 0, "time": 0, "kind": "task"}}"#

  static func restore(_ entries: [String], onto file: String = twoTasks) throws
    -> JournalReplay.Restored<
      TaskRecord
    >
  {
    let bytes = JournalFramingTests.journal([header] + entries).bytes
    let log = try #require(try Journal.leftover(bytes, modificationTime: 0))
    let document = try RecordFile<TaskRecord>.decode(Array(file.utf8)).document
    return try JournalReplay.restore(log, onto: Editor(document: document))
  }

  static let twoTasks = #"[{"id": "a1aaaaaa", "title": "one"}, {"id": "b2bbbbbb", "title": "two"}]"#
  static let setOne = #"{"do": {"op": "set", "record": 0, "field": "title", "old": "one", "new": "uno"}}"#
  static let setTwo = #"{"do": {"op": "set", "record": 1, "field": "title", "old": "two", "new": "dos"}}"#

  @Test func stepsAfterAGotoBranchFromThatState() throws {
    let restored = try Self.restore([Self.setOne, Self.setTwo, #"{"goto": 1}"#, Self.setTwo])
    let history = restored.editor.history
    #expect(history.keptSteps.map(\.number) == [1, 2, 3])
    #expect(history.keptSteps.map(\.parent) == [0, 1, 1])
    #expect(restored.finalState == 3)
    #expect(restored.savedState == 0)
    // The document is untouched: it is the saved file.
    #expect(restored.editor.document.records.map(\.title) == ["one", "two"])
  }

  @Test func aSaveMarksItsStateAndWhatCameBeforeIsNotUnsaved() throws {
    let restored = try Self.restore([
      Self.setOne, #"{"save": "h1", "state": 1, "time": 5}"#, #"{"saved": true}"#, Self.setTwo,
      #"{"close": 9}"#,
    ])
    #expect(restored.savedState == 1)
    #expect(restored.savedHash == "h1")
    #expect(restored.closed)
    #expect(restored.editor.history.saves == [History<TaskRecord>.Save(state: 1, time: 5)])
    // One step came after the save: the unsaved work the log holds, had it not been closed.
    let open = JournalFramingTests.journal([
      Self.header, Self.setOne, #"{"save": "h1", "state": 1, "time": 5}"#, #"{"saved": true}"#, Self.setTwo,
    ]).bytes
    #expect(try #require(try Journal.leftover(open, modificationTime: 0)).stepCount == 1)
  }

  /// A save is logged before its file is renamed into place: unconfirmed, and with the
  /// file still holding the bytes of the save before it, its file never landed.
  @Test func anUnconfirmedSaveWhoseFileDidNotLandGivesWayToTheOneBefore() throws {
    let entries = [
      Self.setOne, #"{"save": "h1", "state": 1, "time": 5}"#, #"{"saved": true}"#, Self.setTwo,
      #"{"save": "h2", "state": 2, "time": 6}"#,
    ]
    let bytes = JournalFramingTests.journal([Self.header] + entries).bytes
    let log = try #require(try Journal.leftover(bytes, modificationTime: 0))
    let editor = Editor(document: try RecordFile<TaskRecord>.decode(Array(Self.twoTasks.utf8)).document)
    #expect(try JournalReplay.restore(log, onto: editor, fileHash: "h1").savedState == 1)
    #expect(try JournalReplay.restore(log, onto: editor, fileHash: "h2").savedState == 2)
    // Neither: changed outside recsh after the last save.
    #expect(try JournalReplay.restore(log, onto: editor, fileHash: "h3").savedState == 2)
    // Confirmed, the last save stands whatever the file holds.
    let confirmed = JournalFramingTests.journal([Self.header] + entries + [#"{"saved": true}"#]).bytes
    let confirmedLog = try #require(try Journal.leftover(confirmed, modificationTime: 0))
    #expect(try JournalReplay.restore(confirmedLog, onto: editor, fileHash: "h1").savedState == 2)
  }

  @Test func aGroupBecomesOneStepAndARollbackNone() throws {
    let restored = try Self.restore([
      #"{"begin": "g", "origin": null}"#, Self.setOne, Self.setTwo, #"{"end": true}"#,
      #"{"begin": null, "origin": null}"#, Self.setOne, #"{"rollback": true}"#,
    ])
    #expect(restored.editor.history.keptSteps.map(\.command.name) == ["g"])
    #expect(restored.openGroups.isEmpty)
  }

  @Test func groupsOpenAtTheEndAreReturnedNotRecorded() throws {
    let restored = try Self.restore([#"{"begin": "g", "origin": "s.rsh:2"}"#, Self.setOne])
    #expect(restored.editor.history.keptCount == 0)
    #expect(restored.openGroups.map(\.name) == ["g"])
    #expect(restored.openGroups.first?.commands.count == 1)
  }

  @Test func aGotoToAStateTheLogDoesNotHoldIsRefused() {
    #expect(throws: JournalError.badEntry(record: 2, reason: "'goto' to step 7, which it does not hold")) {
      try Self.restore([Self.setOne, #"{"goto": 7}"#])
    }
  }

  @Test func aSaveWithMorePendingChangesThanItsGroupsIsRefused() {
    #expect(
      throws: JournalError.badEntry(
        record: 2, reason: "a save with more pending changes than its groups hold")
    ) {
      try Self.restore([
        #"{"begin": null, "origin": null}"#, #"{"save": "h", "state": 0, "time": 0, "pending": 2}"#,
      ])
    }
  }

  @Test func anEndWithoutAGroupIsRefused() {
    #expect(throws: JournalError.badEntry(record: 1, reason: "'end' without an open group")) {
      try Self.restore([#"{"end": true}"#])
    }
  }

  @Test func anEarlierVersionsSnapshotIsRefusedByName() {
    #expect(
      throws: JournalError.badEntry(
        record: 1, reason: "\"snapshot\" is from an earlier recsh's journal, which this one does not replay")
    ) {
      try Self.restore([#"{"snapshot": []}"#])
    }
  }

  @Test func aNewerFormatIsRefused() {
    let bytes = JournalFramingTests.journal([
      #"{"header": {"format": 5, "base": null, "pid": 0, "time": 0, "kind": "task"}}"#
    ]).bytes
    #expect(throws: JournalError.newerFormat(5)) { try Journal.leftover(bytes, modificationTime: 0) }
  }

  @Test func numbersSkipDroppedSteps() throws {
    let restored = try Self.restore([Self.setOne, #"{"number": 5}"#, Self.setTwo])
    #expect(restored.editor.history.keptSteps.map(\.number) == [1, 5])
    #expect(throws: JournalError.badEntry(record: 2, reason: "step number 1 is not new")) {
      try Self.restore([Self.setOne, #"{"number": 1}"#])
    }
  }
}
