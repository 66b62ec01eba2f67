import RecordKit

/// What the user typed, parsed once at the edge. (A `Command` is the undoable
/// edit in the core; a `ShellCommand` is a line of input.) Field names in it
/// have already been checked against the kind's field table.
public enum ShellCommand: Equatable, Sendable {
  case new([FieldAssignment])
  case delete(ref: String?)
  /// `insert [@N] JSON`: a whole record, as the file would hold it, at position N (0-based
  /// here; the end when absent).
  case insert(position: Int?, record: String)
  case use(ref: String)
  case set(FieldAssignments)
  case unset(field: String)
  /// `add FIELD VALUE` / `remove FIELD VALUE`: one list element in or out.
  case listEdit(field: String, element: ValueToken, adding: Bool)
  case show(ref: String?)
  case list(RecordQuery)
  /// `count [FILTER]...`: how many records pass.
  case count(filters: [ListFilter])
  /// `set/unset/add/remove … where FILTER...`: one step over every record that passes.
  case bulk([BulkAssignment], filters: [ListFilter])
  /// `delete where FILTER...`.
  case deleteWhere(filters: [ListFilter])
  /// `diff [FROM [TO]]`: the record-level difference between two states (by default the
  /// saved state and now).
  case diff(from: HistoryPoint?, to: HistoryPoint?)
  /// `log [REF] [FIELD]`: the steps that changed a record (or one field), newest first.
  case log(ref: String?, field: String?)
  /// `blame [REF]`: each field of a record with the step that last set it.
  case blame(ref: String?)
  /// `preview COMMAND`: the difference an editing command would make, made on nothing.
  indirect case preview(ShellCommand)
  /// `assert [REF] FILTER...`: fails unless the record passes every filter.
  case assert(ref: String?, filters: [ListFilter])
  /// `format [FORMAT]`: how results print (without one: which it is).
  case format(OutputFormat?)
  /// `timing on|off` (without one: which it is).
  case timing(Bool?)
  case begin(name: String?)
  case end
  case rollback
  case undo(count: Int)
  case redo(count: Int)
  /// `history` (the current branch) or `history all` (the whole tree).
  case history(all: Bool)
  /// `history clear`.
  case clearHistory
  /// `history info`: where the history is kept, its size on disk, steps, oldest date, backups.
  case historyInfo
  /// `goto N`: the state after step N (0: the start).
  case goto(Int)
  case earlier(HistorySpan)
  case later(HistorySpan)
  case save(file: String?, force: Bool)
  /// `export[!] FILE [FROM [TO]]`: the edits between two states as a guarded script.
  case export(file: String, from: HistoryPoint?, to: HistoryPoint?, force: Bool)
  case open(file: String, force: Bool)
  case source(file: String)
  case fields
  /// The kind as a JSON Schema document.
  case schema
  case help(command: String?)
  case quit(force: Bool)
  /// The open conflicts of a merge (`recsh merge`).
  case conflicts
  /// Settles the merge conflict of a record's field: ours' value, theirs', or a value.
  case resolve(ref: String, field: String, choice: ResolveChoice)
}

/// How `resolve` settles a conflict.
public enum ResolveChoice: Equatable, Sendable {
  case ours
  case theirs
  /// A value typed as `set` takes it.
  case value(ValueToken)
}

/// One filter, `FIELD OP VALUE` (`priority>=3`, `tags=work`, `due=null`): what it means
/// is `FilterOperator`'s; the field name is checked against the kind when the command runs.
public struct ListFilter: Equatable, Sendable, CustomStringConvertible {
  var field: String
  var op: FilterOperator
  var operand: FilterOperand

  init(field: String, op: FilterOperator = .equal, operand: FilterOperand) {
    self.field = field
    self.op = op
    self.operand = operand
  }

  /// `FIELD=VALUE`, the common case.
  init(field: String, value: ValueToken) {
    self.init(field: field, op: .equal, operand: value == .word("null") ? .null : .value(value))
  }

  /// The filter as it could be typed again, for messages.
  public var description: String {
    let value: String
    switch operand {
    case .null: value = "null"
    case .value(let token): value = token.description
    }
    return field + op.rawValue + value
  }
}

/// `list`'s filters, order, limit and columns.
public struct RecordQuery: Equatable, Sendable {
  var filters: [ListFilter] = []
  /// Sort keys, most significant first; `descending` for `sort -FIELD`.
  var sort: [(field: String, descending: Bool)] = []
  var limit: Int?
  /// `fields F1,F2`: the columns to show, in order; `nil`: the usual ones.
  var fields: [String]?

  init(
    filters: [ListFilter] = [], sort: [(field: String, descending: Bool)] = [], limit: Int? = nil,
    fields: [String]? = nil
  ) {
    self.filters = filters
    self.sort = sort
    self.limit = limit
    self.fields = fields
  }

  public static func == (lhs: RecordQuery, rhs: RecordQuery) -> Bool {
    lhs.filters == rhs.filters && lhs.limit == rhs.limit && lhs.fields == rhs.fields
      && lhs.sort.map(\.field) == rhs.sort.map(\.field)
      && lhs.sort.map(\.descending) == rhs.sort.map(\.descending)
  }
}

extension ShellCommand {
  /// Whether `preview` takes it: the commands that change the document.
  var isPreviewable: Bool {
    switch self {
    case .new, .insert, .delete, .set, .unset, .listEdit, .bulk, .deleteWhere, .undo, .redo, .goto, .earlier,
      .later,
      .rollback, .resolve:
      true
    default: false
    }
  }
}

/// A state of the history as `diff` names it.
public enum HistoryPoint: Equatable, Sendable {
  /// The state after step N (0: the start).
  case step(Int)
  /// The state the file was last read or saved in.
  case saved
  /// The document as it is (open groups' changes included).
  case now
  /// The oldest state kept.
  case start
  /// The newest state at least this many seconds old (`10m`).
  case ago(Double)
}

/// One field of a bulk edit: what happens to it, and whether `+FIELD` makes it new.
public struct BulkAssignment: Equatable, Sendable {
  var field: String
  var change: BulkChange
  var createsCustomField: Bool

  init(_ field: String, _ change: BulkChange, createsCustomField: Bool = false) {
    self.field = field
    self.change = change
    self.createsCustomField = createsCustomField
  }
}
