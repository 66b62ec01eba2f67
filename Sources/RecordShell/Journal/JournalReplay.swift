import RecordKit

/// Reads a history log back into an undo tree, without touching the document: the steps
/// are decoded and placed where the log made them, the moves followed, the saves noted.
/// The document is then the saved file, at the last save's state (`Restored.savedState`).
///
/// Groups are followed as the log shows them: a `begin` collects the `do` entries until
/// its `end` (which makes one step of them) or `rollback` (which drops them). Groups
/// still open at the end were open when a session died; they are returned, not recorded.
package enum JournalReplay {
  /// A log read back.
  package struct Restored<Root: Record> {
    /// The tree, positioned where the log left off (`finalState`).
    package var editor: Editor<Root>
    /// The state the last save wrote, its hash and its records' numbers; the start state
    /// and the header's hash when the log holds no save.
    package var savedState: Int
    var savedHash: String?
    var savedNumbers: [NumberRun]?
    /// A save inside a group also wrote the group's changes so far: these commands, in order.
    var savedPending: [Command<Root>] = []
    /// Where the log left the document.
    var finalState: Int
    /// Groups open when the log ends, outermost first, with their commands.
    var openGroups: [(name: String?, origin: String?, commands: [Command<Root>])]
    /// Whether the last session ended normally.
    var closed: Bool
    /// The log's length and record count up to the last save or session start (what
    /// discarding a dead session's unsaved work keeps).
    var keptLength: Int
    var keptRecords: Int
    /// How many steps the log holds (for compaction).
    var stepCount: Int
  }

  /// `fileHash`: the content hash of the data file now. The save placed is the last one.
  /// A save is logged just before its file is renamed into place, and confirmed (`saved`)
  /// after; when the last one is not confirmed and the file holds the bytes of the one
  /// before it (or of the log's start), its file never landed, and the one before is
  /// placed. Otherwise a file that is not the last save's was changed outside recsh.
  package static func restore<Root: Record>(
    _ log: LeftoverJournal, onto start: Editor<Root>, fileHash: String? = nil
  ) throws(JournalError) -> Restored<Root> {
    var editor = start
    let header = log.header
    var restored = Restored(
      editor: editor, savedState: header.start, savedHash: header.base, savedNumbers: header.numbers,
      finalState: header.start, openGroups: [], closed: false,
      keptLength: log.leadingEnd, keptRecords: log.leading, stepCount: 0)
    var groups: [(name: String?, origin: String?, commands: [Command<Root>])] = []
    /// The last two saves: state, hash, numbers and the pending commands.
    typealias Saved = (state: Int, hash: String?, numbers: [NumberRun]?, pending: [Command<Root>])
    var lastSaves: [Saved] = [(header.start, header.base, header.numbers, [])]
    var confirmed = true
    var nextNumber = header.start + 1
    var time = header.time
    var current = header.start
    editor.restoreStart(header.start)
    /// A command performed (or a group closed): the next step, or a change of the open group.
    func take(_ command: Command<Root>) {
      guard groups.isEmpty else {
        groups[groups.count - 1].commands.append(command)
        return
      }
      editor.restoreStep(command, number: nextNumber, at: time)
      current = nextNumber
      nextNumber += 1
      restored.stepCount += 1
    }
    for (index, entry) in log.entries.enumerated() {
      let record = log.recordNumbers[index]
      do {
        switch entry {
        case .header, .base: throw JournalError.badEntry(record: record, reason: "out of place")
        case .open:
          restored.closed = false
          mark(&restored, log, index)
        case .close:
          restored.closed = true
        case .time(let seconds): time = seconds
        case .number(let number):
          guard number >= nextNumber else {
            throw JournalError.badEntry(record: record, reason: "step number \(number) is not new")
          }
          nextNumber = number
        case .perform(let bytes):
          take(.stored(StoredCommand(bytes: bytes)))
        case .begin(let name, let origin):
          groups.append((name, origin, []))
        case .end:
          guard let group = groups.popLast() else {
            throw JournalError.badEntry(record: record, reason: "'end' without an open group")
          }
          guard !group.commands.isEmpty else { break }
          take(.group(name: group.name, CommandList(group.commands)))
        case .rollback:
          guard groups.popLast() != nil else {
            throw JournalError.badEntry(record: record, reason: "'rollback' without an open group")
          }
        case .goto(let state):
          // (A recovery goes to where a dead session was before re-opening its groups.)
          guard editor.history.isState(state) else {
            throw JournalError.badEntry(
              record: record, reason: "'goto' to step \(state), which it does not hold")
          }
          editor.restorePosition(state)
          current = state
        case .place(let state):
          guard editor.history.isState(state) else {
            throw JournalError.badEntry(
              record: record, reason: "'place' at step \(state), which it does not hold")
          }
          editor.place(at: state)
          current = state
        case .save(let hash, let state, let seconds, let numbers, let pending):
          guard editor.history.isState(state) else {
            throw JournalError.badEntry(
              record: record, reason: "a save of step \(state), which it does not hold")
          }
          let inGroups = groups.flatMap(\.commands)
          guard pending <= inGroups.count else {
            throw JournalError.badEntry(
              record: record, reason: "a save with more pending changes than its groups hold")
          }
          if pending == 0 { editor.restoreSave(of: state, at: seconds) }
          mark(&restored, log, index)
          lastSaves = [
            lastSaves[lastSaves.count - 1], (state, hash, numbers, Array(inGroups.suffix(pending))),
          ]
          confirmed = false
        case .saved:
          confirmed = true
        }
      } catch let error as JournalError {
        throw error
      } catch {
        throw .replayFailed(record: record, reason: "\(error)")
      }
    }
    let chosen =
      !confirmed && lastSaves.count == 2 && lastSaves[1].hash != fileHash && lastSaves[0].hash == fileHash
      ? lastSaves[0] : lastSaves[lastSaves.count - 1]
    (restored.savedState, restored.savedHash, restored.savedNumbers, restored.savedPending) = chosen
    editor.restoreSavedState(restored.savedPending.isEmpty ? restored.savedState : nil)
    restored.finalState = current
    restored.openGroups = groups
    restored.editor = editor
    return restored
  }

  /// A save or a session start: what came before is not unsaved work.
  private static func mark<Root: Record>(
    _ restored: inout Restored<Root>, _ log: LeftoverJournal, _ index: Int
  ) {
    restored.keptLength = log.ends[index]
    restored.keptRecords = log.recordNumbers[index] + 1
  }
}

extension JournalReplay {
  /// The log that reads back (`restore`) as `history`, written whole: the reader's inverse,
  /// kept beside it. `header`, the start state's records (`start`, encoded and compressed),
  /// each kept step from its parent (with `goto`, `number` and `time` entries where the
  /// tree and the clock need them), the saves (the last with `savedHash` and the
  /// document's record numbers, `savedNumbers`), and the current state; then an `open`.
  /// A compaction (`PersistentDocument.compactLog`) replaces the log by it.
  static func entries<Root: Record>(
    of history: History<Root>, startingFrom start: Document<Root>, header: JournalEntry.Header,
    savedHash: String?, savedNumbers: [NumberRun]?
  ) -> [JournalEntry] {
    let baseRecords = RecordFile<Root>.encode(start.records)
    var records: [JournalEntry] = [
      .header(header),
      .base(hash: ContentHash.of(baseRecords), records: baseRecords),
    ]
    var at = history.start
    var next = history.start + 1
    var second = -1.0
    for step in history.keptSteps {
      if step.parent != at { records.append(.goto(step.parent)) }
      if step.number != next { records.append(.number(step.number)) }
      if step.time > second {
        second = step.time
        records.append(.time(second))
      }
      var encoded: [UInt8] = []
      let command = step.command
      if header.format >= JournalEntry.compactStepFormat && command.isCompactStep {
        command.appendStep(to: &encoded)
      } else {
        command.appendEncoded(to: &encoded)
      }
      records.append(.perform(encoded))
      (at, next) = (step.number, step.number + 1)
    }
    for save in history.saves where history.isState(save.state) {
      let isLast = save.state == history.savedState
      records.append(
        .save(
          hash: isLast ? (savedHash ?? "") : "", state: save.state, time: save.time,
          numbers: isLast ? savedNumbers : nil))
    }
    records.append(.saved)
    if history.current != at { records.append(.goto(history.current)) }
    records.append(Journal.openEntry(kind: Root.kind))
    return records
  }
}
