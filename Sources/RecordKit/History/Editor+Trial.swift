extension Editor {
  /// Takes the document back from where a trial left it, and says what the trial changed:
  /// what `preview` prints, made without a copy of the document.
  ///
  /// The trial is one command run on a copy of this editor whose document was handed over
  /// (not shared, so edited in place); `state` and `openGroups` are what the editor had
  /// before it, and `nextNumber` its document's next record number. What the trial did is
  /// read off the difference: commands the open groups gained (an edit inside a group) are
  /// reverted, a group they lost (`rollback`) is applied again, and the way from the
  /// trial's state back to `state` (a new step, `undo`, `goto`, …) is walked. The document
  /// is then as it was, record for record and number for number; the history is left as
  /// the trial made it, for the caller to drop.
  ///
  /// Costs O(the records those commands touch) for the two snapshots of them, plus the
  /// commands' own apply and revert; no copy of the document.
  public mutating func takeBack(
    to state: Int, openGroups original: [History<Root>.OpenGroup], nextNumber: RecordNumber
  ) -> RecordChanges<Root> {
    var moves: [(command: Command<Root>, back: Bool)] = []
    let groups = history.openGroups
    for index in 0..<min(groups.count, original.count) {
      for command in groups[index].commands.dropFirst(original[index].commands.count).reversed() {
        moves.append((command, true))
      }
    }
    if groups.count < original.count {
      for group in original[groups.count...] {
        for command in group.commands { moves.append((command, false)) }
      }
    }
    if history.current != state, let (revert, apply) = history.route(to: state) {
      for number in revert { history.command(number).map { moves.append(($0, true)) } }
      for number in apply { history.command(number).map { moves.append(($0, false)) } }
    }
    let unique = Command.records(touchedBy: moves.map(\.command))
    let after = snapshot(unique)
    for move in moves {
      if move.back { move.command.revert(in: &document) } else { move.command.apply(to: &document) }
    }
    document.rewindNextNumber(to: nextNumber)
    return RecordChanges(before: snapshot(unique), after: after)
  }
}

extension Command {
  /// The numbers of the records any of `commands` touches, ascending, each once. Numbers
  /// are dense (`Document`), so they are marked in a table by number rather than sorted:
  /// O(records touched + the highest number).
  public static func records(touchedBy commands: [Command<Root>]) -> [RecordNumber] {
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
  public func forEachRecord(_ body: (RecordNumber) -> Void) {
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
