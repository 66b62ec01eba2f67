import RecordKit

/// What the user typed, parsed once at the edge. (A `Command` is the undoable
/// edit in the core; a `ShellCommand` is a line of input.) Field names in it
/// have already been checked against the kind's field table.
public enum ShellCommand: Equatable, Sendable {
  case new([FieldAssignment])
  case delete(ref: String?)
  case use(ref: String)
  case set([FieldAssignment])
  case unset(field: String)
  /// `add FIELD VALUE` / `remove FIELD VALUE`: one list element in or out.
  case listEdit(field: String, element: ValueToken, adding: Bool)
  case show(ref: String?)
  case list(filters: [ListFilter])
  case begin(name: String?)
  case end
  case rollback
  case undo(count: Int)
  case redo(count: Int)
  /// `history` (the current branch) or `history all` (the whole tree).
  case history(all: Bool)
  /// `history clear`.
  case clearHistory
  /// `goto N`: the state after step N (0: the start).
  case goto(Int)
  case earlier(HistorySpan)
  case later(HistorySpan)
  case save(file: String?, force: Bool)
  case open(file: String, force: Bool)
  case source(file: String)
  case fields
  /// The kind as a JSON Schema document.
  case schema
  case help(command: String?)
  case quit(force: Bool)
}

/// `FIELD=VALUE` of `list`: records whose field equals the value, or whose
/// list field contains it.
public struct ListFilter: Equatable, Sendable {
  public var field: String
  public var value: ValueToken

  public init(field: String, value: ValueToken) {
    self.field = field
    self.value = value
  }
}
