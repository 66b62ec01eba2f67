import RecordKit
import Testing

@testable import RecordShell

/// Replaying a journal's entries onto the saved file: commands a save left in an
/// open group (`applied`) must be in the file, and come only right after the header.
@Suite struct JournalReplayTests {
  static let header = #"{"header": {"base": null, "pid": 0, "time": 0, "kind": "task"}}"#

  static func replay(_ entries: [String], onto file: String) throws -> Editor<TaskRecord> {
    let bytes = JournalFramingTests.journal([header] + entries).bytes
    let leftover = try #require(try Journal.leftover(bytes, modificationTime: 0))
    let document = try RecordFile<TaskRecord>.decode(Array(file.utf8)).document
    return try JournalReplay.replay(leftover, onto: Editor(document: document))
  }

  static let twoTasks = #"[{"id": "a1aaaaaa", "title": "one"}, {"id": "b2bbbbbb", "title": "two"}]"#

  /// Found by fuzzing: an applied edit the file does not hold was recorded as done,
  /// and undoing then redoing the group changed the records.
  @Test func anAppliedEditTheFileDoesNotHoldIsRefused() {
    let entries = [
      #"{"begin": null, "origin": null}"#,
      #"{"applied": {"op": "set", "record": 1, "field": "due", "new": "2026-12-24"}}"#,
      #"{"end": true}"#,
    ]
    #expect(throws: JournalError.replayFailed(record: 2, reason: "Set due is not in the saved file")) {
      try Self.replay(entries, onto: Self.twoTasks)
    }
  }

  /// Reverting an applied delete whose position is past the end would trap in `rollback`.
  @Test func anAppliedDeleteThatCannotBePutBackIsRefused() {
    let entries = [
      #"{"begin": "g", "origin": null}"#,
      #"{"applied": {"op": "delete", "at": 9, "number": 2, "record": {"id": "c3cccccc", "title": "x"}}}"#,
      #"{"rollback": true}"#,
    ]
    #expect(throws: JournalError.replayFailed(record: 2, reason: "Delete record is not in the saved file")) {
      try Self.replay(entries, onto: Self.twoTasks)
    }
  }

  @Test func anAppliedCommandAfterOtherStepsIsRefused() {
    let entries = [
      #"{"begin": "g", "origin": null}"#,
      #"{"do": {"op": "set", "record": 0, "field": "title", "old": "one", "new": "uno"}}"#,
      #"{"applied": {"op": "set", "record": 0, "field": "title", "old": "one", "new": "uno"}}"#,
    ]
    #expect(throws: JournalError.badEntry(record: 3, reason: "an applied command after other steps")) {
      try Self.replay(entries, onto: Self.twoTasks)
    }
  }

  /// Two applied edits of one field: the file holds the last value, and a rollback
  /// goes back through both to the value before the group.
  @Test func appliedCommandsTheFileHoldsReplayAndRollBack() throws {
    let file = #"[{"id": "a1aaaaaa", "title": "three"}, {"id": "b2bbbbbb", "title": "two"}]"#
    let entries = [
      #"{"begin": "g", "origin": "s.rsh:1"}"#,
      #"{"applied": {"op": "set", "record": 0, "field": "title", "old": "one", "new": "two"}}"#,
      #"{"begin": null, "origin": null}"#,
      #"{"applied": {"op": "set", "record": 0, "field": "title", "old": "two", "new": "three"}}"#,
    ]
    var editor = try Self.replay(entries, onto: file)
    #expect(editor.document.records[0].title == "three")
    #expect(editor.history.openGroups.count == 2)
    try editor.rollback()
    try editor.rollback()
    #expect(editor.document.records[0].title == "one")
  }
}
