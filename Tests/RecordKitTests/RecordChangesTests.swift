import Testing

@testable import RecordKit

/// `RecordChanges` over random edits, checked against what each record holds: a record
/// is added exactly when its number is new, deleted exactly when its number is gone, and
/// every changed field's old and new values are the ones the two documents hold at its
/// path (and no other field differs). Also `Editor.document(atState:)`: each state it
/// makes is the document the editor had there.
@Suite struct RecordChangesTests {
  @Test func randomEditsAreDescribedExactly() throws {
    var random = SplitMix64(seed: 42)
    for _ in 0..<200 {
      var editor = Editor(
        document: try Document(
          records: (0..<6).map { index in
            var record = TaskRecord(id: "r\(index)")
            record.title = "t\(index)"
            record.priority = index % 3
            return record
          }))
      var states: [(Int, Document<TaskRecord>)] = [(0, editor.document)]
      for _ in 0..<Int(random.next() % 6) + 1 {
        let count = editor.document.count
        switch random.next() % 5 {
        case 0 where count > 0:
          let id = editor.document.id(at: Int(random.next() % UInt64(count)))
          try editor.set([FieldAssignment("priority", .word(String(random.next() % 6)))], onRecord: id)
        case 1 where count > 0:
          let id = editor.document.id(at: Int(random.next() % UInt64(count)))
          try editor.editList("tags", .word(["a", "b"][Int(random.next() % 2)]), adding: true, onRecord: id)
        case 2 where count > 0:
          try editor.deleteRecord(at: Int(random.next() % UInt64(count)))
        case 3:
          try editor.newRecord(id: "n\(random.next() % 1000)", [FieldAssignment("title", .word("new"))])
        default:
          let positions = editor.document.records.indices.filter { _ in random.next() % 2 == 0 }
          let field = try editor.bulkField("detail", createsCustom: false)
          try editor.bulkEdit([(field, .set(.word("d\(random.next() % 3)")))], at: positions)
        }
        states.append((editor.history.current, editor.document))
      }
      for (state, document) in states {
        #expect(try editor.document(atState: state).records == document.records)
      }
      let (old, new) = (states[Int(random.next() % UInt64(states.count))].1, editor.document)
      Self.expectDescribed(RecordChanges(from: old, to: new), old, new)
    }
  }

  static func expectDescribed(
    _ changes: RecordChanges<TaskRecord>, _ old: Document<TaskRecord>, _ new: Document<TaskRecord>
  ) {
    var added = Set<RecordNumber>()
    var deleted = Set<RecordNumber>()
    var changed = Set<RecordNumber>()
    for change in changes.changes {
      switch change {
      case .added(_, let position): added.insert(new.number(at: position))
      case .deleted(_, let position): deleted.insert(old.number(at: position))
      case .changed(let id, let position, let fields):
        let number = new.number(at: position)
        changed.insert(number)
        let record = new.records[position]
        #expect(record.id == id)
        guard let before = old.record(numbered: number) else {
          Issue.record("a changed record \(number) is not in the old document")
          continue
        }
        let (a, b) = (TaskRecord.fields.encode(before), TaskRecord.fields.encode(record))
        // Every key either document has: named when, and only when, it differs.
        let keys = Set(a.members.map(\.key) + b.members.map(\.key))
        for key in keys {
          let field = fields.first { $0.path == key }
          if a[key] == b[key] {
            #expect(field == nil, "\(key) did not change")
          } else {
            #expect(field?.old == a[key] && field?.new == b[key], "\(key)")
          }
        }
      }
    }
    let oldNumbers = Set(old.numbers)
    let newNumbers = Set(new.numbers)
    #expect(added == newNumbers.subtracting(oldNumbers))
    #expect(deleted == oldNumbers.subtracting(newNumbers))
    let differing = newNumbers.intersection(oldNumbers).filter {
      old.record(numbered: $0) != new.record(numbered: $0)
    }
    #expect(changed == differing)
  }
}
