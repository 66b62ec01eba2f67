import Testing

@testable import RecordKit

/// `FieldAssignments`: the pairs of one `set` in the order given, whichever way they were
/// made, equal exactly when their pairs are; and a `set` of one, two or no pairs changes a
/// record as it says.
@Suite struct FieldAssignmentsTests {
  private let title = FieldAssignment("title", .quoted("Renew passport"))
  private let priority = FieldAssignment("priority", .word("2"))
  private let color = FieldAssignment("color", .word("red"), createsCustomField: true)

  @Test func holdsItsPairsInOrder() {
    #expect(Array(FieldAssignments()) == [])
    #expect(FieldAssignments().isEmpty)
    #expect(Array(FieldAssignments(title)) == [title])
    #expect(Array(FieldAssignments([title, priority, color])) == [title, priority, color])
    #expect(FieldAssignments([title, priority, color]).count == 3)
    #expect(FieldAssignments([title, priority, color])[2] == color)
    var built = FieldAssignments()
    for pair in [priority, title, color] { built.append(pair) }
    #expect(Array(built) == [priority, title, color])
    #expect(built.indices == 0..<3)
  }

  @Test func equalExactlyWhenThePairsAre() {
    let literal: FieldAssignments = [title]
    #expect(literal == FieldAssignments(title))
    #expect(FieldAssignments([title]) == FieldAssignments(title))
    #expect(FieldAssignments([]) == FieldAssignments())
    #expect(FieldAssignments([title, priority]) != FieldAssignments([priority, title]))
    #expect(FieldAssignments([title]) != FieldAssignments([title, title]))
    #expect(FieldAssignments(title) != FieldAssignments())
    var appended = FieldAssignments(title)
    appended.append(priority)
    #expect(appended == [title, priority])
  }

  @Test func aSetOfOneTwoOrNoPairsChangesTheRecordAsItSays() throws {
    var record = TaskRecord(id: "a")
    record.title = "old"
    var editor = Editor<TaskRecord>(document: try Document(records: [record]))
    try editor.set(FieldAssignments(title), at: 0)
    #expect(editor.document.records[0].title == "Renew passport")
    try editor.set([FieldAssignment("title", .word("again")), priority], at: 0)
    #expect(editor.document.records[0].title == "again")
    #expect(editor.document.records[0].priority == 2)
    #expect(editor.history.current == 2)
    guard case .unchanged = try editor.set(FieldAssignments(), at: 0) else {
      Issue.record("a set of no pairs recorded a step")
      return
    }
    #expect(editor.history.current == 2)
    #expect(throws: EditError.field(.givenTwice("title"))) {
      try editor.set([FieldAssignment("title", .word("x")), FieldAssignment("title", .word("y"))], at: 0)
    }
    #expect(editor.document.records[0].title == "again")
  }
}
