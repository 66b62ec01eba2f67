extension Command {
  /// The numbers of the records any of `commands` touches, ascending, each once. Numbers
  /// are dense (`Document`), so they are marked in a table by number rather than sorted:
  /// O(records touched + the highest number).
  static func records(touchedBy commands: [Command<Root>]) -> [RecordNumber] {
    var marked: [Bool] = []
    var count = 0
    for command in commands {
      command.forEachRecord { number in
        let slot = Int(number.value)
        if slot >= marked.count {
          marked.append(contentsOf: repeatElement(false, count: slot + 1 - marked.count))
        }
        if !marked[slot] {
          marked[slot] = true
          count += 1
        }
      }
    }
    var numbers: [RecordNumber] = []
    numbers.reserveCapacity(count)
    for (slot, isMarked) in marked.enumerated() where isMarked {
      numbers.append(RecordNumber(UInt32(truncatingIfNeeded: slot)))
    }
    return numbers
  }

  /// Calls `body` with the number of each record the command touches, in the order it
  /// does (a record touched twice, twice). A stored command is decoded. O(records touched).
  func forEachRecord(_ body: (RecordNumber) -> Void) {
    switch self {
    case .edit(let edit): body(edit.record)
    case .edits(let edits): for edit in edits { body(edit.record) }
    case .insert(_, let number, _), .delete(_, let number, _): body(number)
    case .group(_, let commands): for command in commands { command.forEachRecord(body) }
    case .stored(let stored): stored.command?.forEachRecord(body)
    case .bulk(let edits, _): for edit in edits { edit.records.forEach(body) }
    case .deleteAll(let deletion): deletion.numbers.forEach(body)
    }
  }
}
