import RecordKit

/// Rebuilds a session's document and history from a leftover journal: the
/// steps are replayed through the editor, so they stay undoable. Every decoded
/// command is checked against the state it must apply to; one that does not
/// fit stops the replay with an error (nothing half-applied reaches the user).
package enum JournalReplay {
  package static func replay<Root: Record>(_ leftover: LeftoverJournal, onto start: Editor<Root>)
    throws(JournalError) -> Editor<Root>
  {
    var editor = start
    for (index, entry) in leftover.entries.enumerated() {
      let record = index + 1
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
          try editor.recordApplied(try Command<Root>(decoding: json))
        case .begin(let name, let origin): editor.begin(name, origin: origin)
        case .end: try editor.end()
        case .rollback: try editor.rollback()
        case .undo: _ = try editor.undo(1)
        case .redo: _ = try editor.redo(1)
        case .snapshot(let values):
          var records: [Root] = []
          for value in values {
            guard case .object(let object) = value else {
              throw JournalError.badEntry(record: record, reason: "a snapshot record is not an object")
            }
            records.append(try Root.fields.decode(object))
          }
          var fresh = Editor(
            document: try Document(records: records), undoLimit: editor.history.limit, clock: editor.clock)
          fresh.markUnsaved()
          editor = fresh
        }
      } catch let error as JournalError {
        throw error
      } catch {
        throw .replayFailed(record: record, reason: "\(error)")
      }
    }
    return editor
  }
}
