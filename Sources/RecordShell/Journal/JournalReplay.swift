import RecordKit

/// Rebuilds a session's document and history from a leftover journal: the
/// steps are replayed through the editor, so they stay undoable. Every decoded
/// command is checked against the state it must apply to; one that does not
/// fit stops the replay with an error (nothing half-applied reaches the user).
///
/// The commands of groups that were open at a save (`applied` entries) come
/// right after the header, among the `begin`s of their groups, and the document
/// (the saved file) already holds them: reverting them all, last first, must fit
/// it, or a later `rollback` or `undo` would revert what is not there.
package enum JournalReplay {
  package static func replay<Root: Record>(_ leftover: LeftoverJournal, onto start: Editor<Root>)
    throws(JournalError) -> Editor<Root>
  {
    var editor = start
    // The applied commands read so far, with their record numbers; `nil` once
    // another kind of entry has come, after which an applied one is refused.
    var applied: [(record: Int, command: Command<Root>)]? = []
    for (index, entry) in leftover.entries.enumerated() {
      let record = index + 1
      if let commands = applied, !entry.mayComeWithApplied {
        try checkApplied(commands, in: editor.document)
        applied = nil
      }
      do {
        switch entry {
        case .header: throw JournalError.badEntry(record: record, reason: "a second header")
        case .perform(let json):
          let command = try Command<Root>(decoding: json)
          guard command.isApplicable(to: editor.document) else {
            throw JournalError.replayFailed(
              record: record, reason: "\(command.name) does not fit the document")
          }
          editor.perform(command)
        case .applied(let json):
          guard applied != nil else {
            throw JournalError.badEntry(record: record, reason: "an applied command after other steps")
          }
          let command = try Command<Root>(decoding: json)
          try editor.recordApplied(command)
          applied?.append((record, command))
        case .begin(let name, let origin): editor.begin(name, origin: origin)
        case .end: try editor.end()
        case .rollback: try editor.rollback()
        case .undo: _ = try editor.undo(1)
        case .redo: _ = try editor.redo(1)
        case .snapshot(let values):
          var records: [Root] = []
          var numbers: [RecordNumber] = []
          for value in values {
            guard case .object(let entry) = value, let number = Command<Root>.recordNumber(entry["number"]),
              let recordValue = entry["record"]
            else {
              throw JournalError.badEntry(
                record: record, reason: "a snapshot entry needs a \"number\" and a \"record\"")
            }
            do {
              records.append(try Root.fields.decodeFromJournal(recordValue))
            } catch {
              throw JournalError.badEntry(record: record, reason: "a snapshot record: \(error)")
            }
            numbers.append(number)
          }
          var fresh = Editor(
            document: try Document(records: records, numbers: numbers), undoLimit: editor.history.limit,
            clock: editor.clock)
          fresh.markUnsaved()
          editor = fresh
        }
      } catch let error as JournalError {
        throw error
      } catch {
        throw .replayFailed(record: record, reason: "\(error)")
      }
    }
    if let commands = applied { try checkApplied(commands, in: editor.document) }
    return editor
  }

  /// Refuses applied commands whose effect the document does not hold.
  private static func checkApplied<Root: Record>(
    _ applied: [(record: Int, command: Command<Root>)], in document: Document<Root>
  ) throws(JournalError) {
    var scratch = document
    for (record, command) in applied.reversed() {
      guard command.isRevertible(in: scratch) else {
        throw .replayFailed(record: record, reason: "\(command.name) is not in the saved file")
      }
      command.revert(in: &scratch)
    }
  }
}

extension JournalEntry {
  /// Whether the entry may come among the applied commands after the header.
  fileprivate var mayComeWithApplied: Bool {
    switch self {
    case .applied, .begin: true
    default: false
    }
  }
}
