/// What an edit did: the one answer the shell and the log act on.
public enum EditOutcome<Root: Record>: Sendable {
  /// Nothing changed (a field set to the value it holds).
  case unchanged
  /// A new step, numbered `step`, is now the current state.
  case recorded(EditChange<Root>, step: Int)
  /// The change went into the innermost open group.
  case grouped(EditChange<Root>)

  /// The command made, if any (made again from its row when the edit was kept as one:
  /// one allocation).
  public var command: Command<Root>? {
    switch self {
    case .unchanged: nil
    case .recorded(let change, _), .grouped(let change): change.command
    }
  }
}

/// The change an edit made, as the history keeps it: a command, or a row of a field's
/// history column when a one-field `set` was written straight into one (no edit object
/// exists then; `command` makes one). Read at once, while the row is where it was put.
public struct EditChange<Root: Record>: Sendable {
  /// The column the change is a row of, and the row; `nil` when it is `made`. Two stored
  /// properties rather than an enum's cases: a case's payload was copied out of it to be
  /// used, the column retained and released on every edit; a property is read in place.
  private let column: StepColumn<Root>?
  private let row: Int
  /// The command, when the change is not a row.
  private let made: Command<Root>?

  public init(_ command: Command<Root>) { (column, row, made) = (nil, 0, command) }

  init(column: StepColumn<Root>, row: Int) { (self.column, self.row, made) = (column, row, nil) }

  /// The command: the one made, or the row's edit made again (one allocation).
  public var command: Command<Root> {
    if let made { return made }
    guard let column else { preconditionFailure("a change is a command or a row") }
    return column.command(atRow: row)
  }

  /// Appends the change as `Command.appendEncoded` spells it (JSON).
  public func appendEncoded(to out: inout [UInt8]) {
    command.appendEncoded(to: &out)
  }

  /// Whether `appendStep` can write the change: a row, or a command that `isCompactStep`.
  public var isCompactStep: Bool {
    made?.isCompactStep ?? true
  }

  /// Appends the change as the history log keeps a step (`EditStep`); a row is written
  /// from its typed values, without making its edit. Needs `isCompactStep`.
  public func appendStep(to out: inout [UInt8]) {
    // `column?.` calls through the property in place; its answer is `nil` with no column.
    if column?.appendStep(row: row, to: &out) == nil { made?.appendStep(to: &out) }
  }
}

/// What `end` did.
public enum GroupClosing<Root: Record>: Sendable {
  /// The outermost group closed and became step `step`.
  case recorded(Command<Root>, step: Int)
  /// An inner group closed: its changes are now the outer group's.
  case joinedOuter
  /// The group made no changes: nothing recorded.
  case empty

  /// The step's command, when the group became one.
  var command: Command<Root>? {
    if case .recorded(let command, _) = self { return command }
    return nil
  }
}

/// What `undo`, `redo`, `goto`, `earlier` and `later` did: the document moved from state
/// `from` to state `to`, reverting and applying steps.
public struct HistoryMove: Equatable, Sendable {
  public var from: Int
  public var to: Int
  /// The names of the steps reverted, newest first (`undo`, which prints them; a `goto`
  /// only counts them, in `revertedCount`, not to name a million steps it does not show).
  public var reverted: [String]
  /// The names of the steps applied, oldest first (`redo`).
  public var applied: [String]
  /// How many steps were reverted and applied.
  public var revertedCount = 0
  public var appliedCount = 0
  /// Set when the move stopped at the oldest or newest state instead of going further.
  public var stopped: Stop?

  public enum Stop: Equatable, Sendable {
    case oldest
    case newest
  }

  public var moved: Bool { from != to }

  public init(from: Int, to: Int, reverted: [String], applied: [String], stopped: Stop? = nil) {
    (self.from, self.to, self.reverted, self.applied, self.stopped) = (from, to, reverted, applied, stopped)
    (revertedCount, appliedCount) = (reverted.count, applied.count)
  }
}

/// How far `earlier`/`later` go: a duration, or a number of saves.
public enum HistorySpan: Equatable, Sendable {
  case seconds(Double)
  case saves(Int)
}
