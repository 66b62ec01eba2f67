import Testing

@testable import RecordKit

/// A one-field edit as the history log keeps it (`EditStep`): written from a row or an
/// edit, read back to the command the JSON encoding gives, and hostile bytes refused.
@Suite struct EditStepTests {
  /// The bytes a change is kept as in the log.
  static func step(_ change: EditChange<TaskRecord>) -> [UInt8] {
    #expect(change.isCompactStep)
    var bytes: [UInt8] = []
    change.appendStep(to: &bytes)
    return bytes
  }

  static func change(_ outcome: EditOutcome<TaskRecord>) throws -> EditChange<TaskRecord> {
    switch outcome {
    case .recorded(let change, _), .grouped(let change): return change
    case .unchanged: throw Unchanged()
    }
  }

  struct Unchanged: Error {}

  /// The layout, byte by byte, for a declared field and a custom key.
  @Test func aStepIsItsMarkActionRecordFieldAndValues() throws {
    var record = TaskRecord(id: "t1")
    record.priority = 2
    var editor = Editor(document: try Document(records: [TaskRecord(id: "t0"), record]))
    let priority = Self.step(try Self.change(editor.set([FieldAssignment("priority", .word("3"))], at: 1)))
    #expect(
      priority == [2, 0, 1, 0, 0, 0, 0, 8] + Array("priority".utf8) + [
        2, 1, UInt8(ascii: "2"), 2, 1, UInt8(ascii: "3"),
      ])
    let title = Self.step(try Self.change(editor.set([FieldAssignment("title", .quoted("a\"é"))], at: 0)))
    #expect(title == [2, 0, 0, 0, 0, 0, 0, 5] + Array("title".utf8) + [0, 1, 4] + Array("a\"é".utf8))
    let custom = Self.step(
      try Self.change(
        editor.set([FieldAssignment("c", .word("7"), createsCustomField: true)], at: 0)))
    let value = Array(#"{"value": 7}"#.utf8)
    #expect(custom == [2, 0, 0, 0, 0, 0, 1, 1, UInt8(ascii: "c"), 0, 2, UInt8(value.count)] + value)
    let unset = Self.step(try Self.change(editor.unset("c", onRecord: "t0")))
    // The old value keeps the key's place among the record's custom keys.
    let old = Array(#"{"value": 7, "at": 0}"#.utf8)
    #expect(unset == [2, 1, 0, 0, 0, 0, 1, 1, UInt8(ascii: "c"), 2, UInt8(old.count)] + old + [0])
  }

  /// Random edits of every field type, kept as rows and as edits: each step reads back as
  /// the command whose JSON encoding (the older form, written by other code) the original
  /// has, and undoes and redoes as it does.
  @Test func randomEditsReadBackAsTheirCommands() throws {
    var generator = SplitMix64(seed: 30)
    let records = (0..<300).map { TaskRecord(id: "r\($0)") }
    var editor = Editor(document: try Document(records: records))
    // Long values and names: lengths past one LEB128 byte, a head past the stack buffer.
    let longKey = String(repeating: "k", count: 70)
    let texts = [
      "", "plain", "a \"quoted\" \\ word", "tab\there", "naïve café ✓", String(repeating: "x", count: 200),
      "line\nbreak", "\u{1}\u{1F}", String(repeating: "é", count: 9000),
    ]
    var checked = 0
    for round in 0..<3000 {
      let position = Int(generator.next() % UInt64(records.count))
      let before = editor.document
      let outcome: EditOutcome<TaskRecord>
      switch generator.next() % 9 {
      case 0, 1:
        let text = texts[Int(generator.next() % UInt64(texts.count))] + String(round % 7)
        outcome = try editor.set([FieldAssignment("title", .quoted(text))], at: position)
      case 2:
        outcome = try editor.set(
          [FieldAssignment("priority", .word(String(generator.next() % 6)))], at: position)
      case 3:
        outcome = try editor.set(
          [FieldAssignment("done", .word(generator.next() % 2 == 0 ? "true" : "false"))], at: position)
      case 4:
        let due = generator.next() % 3 == 0 ? "null" : "2026-12-0\(1 + generator.next() % 9)"
        outcome = try editor.set([FieldAssignment("due", .word(due))], at: position)
      case 5:
        // Removing an element the list does not hold is refused: nothing to check then.
        guard
          let edited = try? editor.editList(
            "tags", .word("t\(generator.next() % 4)"), adding: generator.next() % 3 != 0,
            onRecord: "r\(position)")
        else { continue }
        outcome = edited
      case 6:
        let key = generator.next() % 2 == 0 ? "extra" : longKey
        let values: [ValueToken] = [.word("-12"), .word("1.5e3"), .quoted("s\(round)"), .list([.word("1")])]
        let value = values[Int(generator.next() % 4)]
        // `+KEY` makes the key, and is refused once the record has it.
        outcome =
          try (try? editor.set([FieldAssignment(key, value, createsCustomField: true)], at: position))
          ?? editor.set([FieldAssignment(key, value)], at: position)
      case 7:
        let field = ["detail", "priority", "due", "tags", "extra"][Int(generator.next() % 5)]
        guard let unset = try? editor.unset(field, onRecord: "r\(position)") else { continue }
        outcome = unset
      default:
        outcome = try editor.set(
          [FieldAssignment("detail", .quoted(texts[Int(generator.next() % UInt64(texts.count))]))],
          at: position)
      }
      guard case .recorded(let change, _) = outcome else { continue }
      let command = change.command
      let bytes = Self.step(change)
      // The edit made again from its row writes the same step.
      var again: [UInt8] = []
      command.appendStep(to: &again)
      #expect(again == bytes)
      let decoded = try Command<TaskRecord>(decodingStep: bytes)
      #expect(decoded.encoded() == command.encoded(), "round \(round)")
      #expect(decoded.name == command.name)
      var document = editor.document
      #expect(decoded.isRevertible(in: document))
      decoded.revert(in: &document)
      #expect(document.records == before.records, "round \(round)")
      decoded.apply(to: &document)
      #expect(document.records == editor.document.records, "round \(round)")
      // Kept in the log, read back later: a stored step, JSON where JSON is wanted.
      let stored = Command<TaskRecord>.stored(StoredCommand(bytes: bytes))
      #expect(stored.isCompactStep)
      var json: [UInt8] = []
      stored.appendEncoded(to: &json)
      #expect(json == command.encoded().compactUTF8)
      checked += 1
    }
    #expect(checked > 2000)
  }

  /// Every cut of a step and every change of one of its bytes is refused or read as some
  /// step, never a crash; the cuts are all refused.
  @Test func cutAndDamagedStepsAreRefused() throws {
    var editor = Editor(document: try Document(records: [TaskRecord(id: "t0")]))
    let bytes = Self.step(
      try Self.change(
        editor.set([FieldAssignment("title", .quoted(String(repeating: "é", count: 80)))], at: 0)))
    for end in 1..<bytes.count {
      #expect(throws: CommandDecodingError.self, "cut at \(end)") {
        try Command<TaskRecord>(decodingStep: Array(bytes[..<end]))
      }
    }
    for index in bytes.indices {
      for value in [UInt8(0), 1, 2, 3, 0x7F, 0x80, 0xC3, 0xFF] {
        var damaged = bytes
        damaged[index] = value
        _ = try? Command<TaskRecord>(decodingStep: damaged)
      }
    }
  }

  @Test func whatIsWrongIsNamed() {
    let title = Array("title".utf8)
    let cases: [([UInt8], String)] = [
      (
        [2, 9, 0, 0, 0, 0, 0, 5] + title + [0, 0], "malformed command: a compact step's action 9 is unknown"
      ),
      (
        [2, 0, 0, 0, 0, 0, 2, 5] + title + [0, 0],
        "malformed command: a compact step's field is neither declared nor custom"
      ),
      (
        [2, 0, 0, 0, 0, 0, 0, 5] + title + [0, 0, 0],
        "malformed command: a compact step has bytes after its values"
      ),
      (
        [2, 0, 0, 0, 0, 0, 0, 5] + title + [0, 3], "malformed command: a compact step's value form is unknown"
      ),
      (
        [2, 0, 0, 0, 0, 0, 0, 5] + title + [0, 1, 2, 0xC3, 0x28],
        "malformed command: a compact step's text is not UTF-8"
      ),
      ([2, 0, 0, 0, 0, 0, 0, 5] + title + [0, 1, 9, 0x41], "malformed command: a compact step ends early"),
      (
        [2, 0, 0, 0, 0, 0, 0, 5] + title + [0, 2, 1, UInt8(ascii: "{")],
        "malformed command: a compact step's value: "
      ),
      ([2, 0, 0, 0, 0, 0, 0, 5] + Array("tytle".utf8) + [0, 0], "unknown field 'tytle'"),
      (
        [2, 0, 0, 0, 0, 0, 0, 5] + title + [0, 2, 1, UInt8(ascii: "7")],
        "field 'title': expected a string, found 7"
      ),
    ]
    for (bytes, message) in cases {
      do {
        _ = try Command<TaskRecord>(decodingStep: bytes)
        Issue.record("\(bytes) decoded")
      } catch {
        #expect(error.description.hasPrefix(message), "\(bytes): \(error)")
      }
    }
  }
}
