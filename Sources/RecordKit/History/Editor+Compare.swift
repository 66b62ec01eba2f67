/// A state `diff` and `export` compare: one of the history's, or now (the current state
/// with the open groups' changes).
public enum EditorPoint: Equatable, Sendable {
  case now
  /// The state after step N (the start state's own number for the start).
  case state(Int)
}

/// Two states of one document, as the records that differ between them (every other
/// record the same in both), each with its position there, and how many records each
/// state holds.
///
/// Public, as the editor's hot paths are: code of another module specialized for a kind
/// is made only for public generic code (see `FieldAccessor`).
public struct StateComparison<Root: Record>: Sendable {
  /// The records that may differ, as the first state holds them, ascending by number.
  public var before: [RecordChanges<Root>.Snapshot]
  /// The same records as the second state holds them, ascending by number.
  public var after: [RecordChanges<Root>.Snapshot]
  var beforeCount: Int
  public var afterCount: Int
}

extension Editor {
  /// Compares two states without a copy of the document: the document walks to each
  /// state in place (the open groups' changes taken back, then the history's way there,
  /// each step read back from a log checked first), the records any of those steps
  /// touch are snapshotted, and it walks back. The records no step on either way touches
  /// are the same in both states, and are not read. Afterwards the document is as it was,
  /// record for record; the history is not changed.
  ///
  /// Costs O(the steps on both ways) twice (there and back) plus O(records touched) for
  /// the snapshots. Throws, with the document as it was, for a state the history does not
  /// hold or a step that does not fit.
  public mutating func compare(_ from: EditorPoint, _ to: EditorPoint) throws(HistoryError)
    -> StateComparison<Root>
  {
    let ways = (try way(to: from), try way(to: to))
    let unique = Command.records(touchedBy: (ways.0 + ways.1).map(\.command))
    let nextNumber = document.nextNumber
    defer { document.rewindNextNumber(to: nextNumber) }
    let before = try visit(ways.0, snapshotting: unique)
    let after = try visit(ways.1, snapshotting: unique)
    return StateComparison(before: before.0, after: after.0, beforeCount: before.1, afterCount: after.1)
  }

  /// One move of the document: a command applied or reverted, with its step number when
  /// it is a step's (so that a step read back from a log is checked first).
  typealias Move = (command: Command<Root>, back: Bool, step: Int?)

  /// The moves that take the document from now to `point`.
  func way(to point: EditorPoint) throws(HistoryError) -> [Move] {
    guard case .state(let state) = point else { return [] }
    guard state >= history.start, state < history.nextNumber else {
      throw .noSuchStep(state, newest: history.nextNumber - 1)
    }
    var moves: [Move] = []
    for group in history.openGroups.reversed() {
      for command in group.commands.reversed() { moves.append((command, true, nil)) }
    }
    guard state != history.current else { return moves }
    guard let (revert, apply) = history.route(to: state) else { throw .stepDropped(state) }
    for number in revert { history.command(number).map { moves.append(($0, true, number)) } }
    for number in apply { history.command(number).map { moves.append(($0, false, number)) } }
    return moves
  }

  /// Makes `moves`, snapshots the records numbered `numbers` (and counts the records),
  /// and takes the moves back. A move that does not fit takes back those made, and throws.
  private mutating func visit(_ moves: [Move], snapshotting numbers: [RecordNumber]) throws(HistoryError) -> (
    [RecordChanges<Root>.Snapshot], Int
  ) {
    var made = 0
    defer {
      for move in moves[..<made].reversed() {
        if move.back { move.command.apply(to: &document) } else { move.command.revert(in: &document) }
      }
    }
    for move in moves {
      try take(move, in: &document)
      made += 1
    }
    return (snapshot(numbers), document.count)
  }

  /// Makes one move on `document` (`Editor.take`: a step read back from a log is checked
  /// first; an open group's command, which has no step, is not).
  func take(_ move: Move, in document: inout Document<Root>) throws(HistoryError) {
    try Self.take(
      move.command, number: move.step ?? Int.max, back: move.back,
      checkedBelow: move.step == nil ? 0 : checkedBelow,
      in: &document)
  }

  /// The records numbered `numbers` that the document holds, with their positions.
  func snapshot(_ numbers: [RecordNumber]) -> [RecordChanges<Root>.Snapshot] {
    numbers.compactMap { number in
      document.position(of: number).map { .init(number: number, position: $0, record: document.records[$0]) }
    }
  }
}
