import RecordKit

/// Why a command failed. Every case carries values; `description` words them.
public enum SessionError: Error, Equatable, Sendable {
  case parse(ParseError)
  case edit(EditError)
  /// A `list` filter whose value does not fit its field: no record was looked at.
  case filter(ListFilter, FieldError)
  /// A filter, `sort` or `fields` naming a field the kind does not declare and no record holds.
  case unknownQueryField(String, suggestion: String?)
  /// `diff saved` for a document that was never read from or saved to a file.
  case neverSaved
  /// `diff saved` when the saved state is no longer in the history (the limit dropped it).
  case savedStateDropped
  /// `assert`: the record (as messages name it) and the first filter it fails, with what
  /// the field holds (`nil`: not set).
  case assertionFailed(record: String, filter: ListFilter, found: String?)
  case history(HistoryError)
  case ref(RefError)
  case storage(StorageError)
  case file(path: String, RecordFileError)
  /// A schema file recsh cannot honour: where in it (a JSON pointer), and why.
  case schema(path: String, pointer: String, message: String)
  case noSelection(command: String)
  case noFileName
  /// A CSV or TSV file's cell holds text: a list or an object for record `record`'s
  /// `field` (`value` says which) has no place in `path`.
  case doesNotFitCell(record: String, field: String, value: String, path: String)
  case changedOnDisk(path: String)
  /// `save OTHER` or `export FILE` onto a file that exists: `command` is which.
  case fileExists(path: String, command: String)
  /// `insert`'s record is not one the kind can hold: why, as loading would say it.
  case badRecord(String)
  case unsavedChanges(operation: String, count: Int, file: String?)
  /// `history clear` with unsaved changes: the history's new start must be the saved file.
  case clearNeedsSave(count: Int)
  /// `history clear` at the prompt: asked once.
  case confirmClear(steps: Int)
  case unknownHelpTopic(String, suggestion: String?)
  case sourceDepth(limit: Int)
  /// Another recsh holds the file's journal lock.
  case locked(path: String, pid: Int32?)
  /// The first change of a session whose file, or its log, another session changed
  /// since this one read them.
  case changedSinceOpened(path: String)
  /// The state folder is unsafe (another user's, or writable by others): no change is made.
  case unsafeStateFolder(path: String, reason: String)
  /// A journal left by a session that died; the user must choose.
  case journalFound(path: String, LeftoverJournal)
  case journal(JournalError)
  case journalPending(path: String)
  case journalUnreadable(path: String, SystemCallError)
  /// Where the log of a "save as" target goes there is something else (a directory…).
  case journalNotAFile(path: String, FileStatus.Kind)
  /// `resolve` naming no open merge conflict: the record reference and the field.
  case noConflict(ref: String, field: String, open: Int)
  /// `resolve` with a choice that cannot settle this conflict.
  case badResolution(String)

  /// Whether the error means the file cannot be edited by this session at all (its log
  /// held or changed by another, an unsafe state folder): a script ends there, with the
  /// exit status of a file that cannot be opened (3), since every later edit would fail
  /// alike.
  var refusesEditing: Bool {
    switch self {
    case .locked, .changedSinceOpened, .unsafeStateFolder: true
    default: false
    }
  }
}

extension SessionError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .parse(let error): error.description
    case .edit(let error): error.description
    case .filter(let filter, let error): "in the filter \(filter): \(error)"
    case .unknownQueryField(let name, let suggestion?):
      "unknown field '\(name)'; did you mean '\(suggestion)'?"
    case .unknownQueryField(let name, nil):
      "unknown field '\(name)': the kind does not declare it and no record has it (see 'fields')"
    case .assertionFailed(let record, let filter, let found):
      "assert failed: record \(record) does not match \(filter) (\(filter.field) is "
        + (found.map { "\($0))" } ?? "not set)")
    case .neverSaved:
      "'saved' names the state of the file, and this document was never on disk; 'save FILE' writes it"
    case .savedStateDropped: "the saved state is no longer in the history (the undo limit dropped it)"
    case .history(let error): error.description
    case .ref(let error): error.description
    case .storage(let error): error.description
    case .file(let path, let error): "\(path):\(error.position): \(error.description)"
    case .schema(let path, let pointer, let message): "\(path): \(pointer): \(message)"
    case .noSelection(let command):
      "no record selected; 'use REF' selects one, or '\(command) REF' names one"
    case .noFileName: "no file name; 'save FILE' names the file"
    case .doesNotFitCell(let record, let field, let value, let path):
      "record '\(record)' field '\(field)': \(value) does not fit a cell of \(path), which holds text (CSV and TSV cells hold strings, numbers and true/false)"
    case .changedOnDisk(let path):
      "\"\(path)\" changed on disk since it was read; 'save!' overwrites it, 'save OTHER' writes elsewhere"
    case .fileExists(let path, let command): "\"\(path)\" already exists; '\(command)! \(path)' overwrites it"
    case .badRecord(let why): "not a record of this file: \(why)"
    case .unsavedChanges(let operation, let count, let file):
      "\(count == 1 ? "1 unsaved change" : "\(count) unsaved changes")\(file.map { " to \"\($0)\"" } ?? ""); "
        + "'save' first, or '\(operation)!' to discard"
        + (operation == "quit" ? " (or 'quit' again)" : "")
    case .clearNeedsSave(let count):
      "\(count == 1 ? "1 unsaved change" : "\(count) unsaved changes"); 'save' (or undo them) first: "
        + "the history starts again from the saved file"
    case .confirmClear(let steps):
      "this drops \(steps) step\(steps == 1 ? "" : "s") of history for good; 'history clear' again to do it"
    case .unknownHelpTopic(let name, let suggestion?): "no command '\(name)'; did you mean '\(suggestion)'?"
    case .unknownHelpTopic(let name, nil): "no command '\(name)' (type 'help' for the list)"
    case .sourceDepth(let limit): "'source' nested more than \(limit) deep (a file sourcing itself?)"
    case .locked(let path, let pid):
      "\"\(path)\" is being edited by another recsh\(pid.map { " (process \($0))" } ?? ""); "
        + "only one recsh may write a file at a time"
    case .changedSinceOpened(let path):
      "\"\(path)\" or its history was changed by another session since this one opened it; "
        + "'open! \(path)' reloads it"
    case .unsafeStateFolder(let path, let reason):
      StateFolderError.unsafe(path: path, reason: reason).description
    case .journalFound(let path, let leftover):
      "\"\(path)\" has a journal of \(leftover.changeCount) unsaved change\(leftover.changeCount == 1 ? "" : "s") "
        + "from a session that ended abnormally (process \(leftover.pid)\(leftover.writerAlive ? ", still running" : "")); "
        + "run 'recsh --recover \(path)' to replay them, or 'recsh --discard-journal \(path)' to set them aside"
    case .journal(let error): error.description
    case .journalUnreadable(let path, let error):
      "cannot read the journal of \"\(path)\" (\(error.description)); the file was not opened, since the "
        + "journal may hold unsaved work"
    case .journalNotAFile(let path, let kind):
      "cannot save as \"\(path)\": its history log's place in recsh's state folder is "
        + "\(kind.description); move it away first"
    case .noConflict(let ref, let field, let open):
      open == 0
        ? "no merge conflicts are open"
        : "no open merge conflict for \(ref) \(field); 'conflicts' lists the \(open) open"
    case .badResolution(let why): why
    case .journalPending(let path):
      "\"\(path)\" has a journal from a session that ended abnormally; "
        + "restart recsh with --recover or --discard-journal to open it"
    }
  }
}

extension SessionError {
  /// A value no CSV or TSV cell holds, in words for `doesNotFitCell`: "a list", "an object".
  static func cellWords(_ value: JSONValue) -> String {
    if case .object = value { return "an object" }
    return "a list"
  }
}
