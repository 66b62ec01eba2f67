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
