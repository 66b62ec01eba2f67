import RecordKit

/// Why a line is not a command. Worded in one place, `description`.
public enum ParseError: Error, Equatable, Sendable {
  case syntax(TokenizerError)
  case unknownCommand(String, suggestion: String?)
  case missingArgument(command: String, usage: String)
  case unexpectedArgument(command: String, found: String, usage: String)
  case expectedWord(command: String, found: String)
  case badCount(command: String, found: String)
  /// `insert x {…}`: what comes before the record is not `@N`.
  case badPosition(command: String, found: String)
  /// `goto` without a step number (0 or more).
  case badStep(found: String)
  /// `earlier`/`later` without a duration or a number of saves.
  case badSpan(command: String, found: String)
  case field(FieldError)
  case missingValue(command: String, field: String)
  case badFilter(String)
  /// Two operators in a row: `priority>>3`.
  case badOperator(String)
  /// `title=` at the end of the line.
  case missingFilterValue(String)
  /// `due<null`: only `=` and `!=` go with null.
  case nullOrdered(String)
  /// `where` with no filter after it.
  case missingFilter(command: String)
  case badLimit(found: String)
  /// `sort` or `fields` with an empty name (`fields a,,b`).
  case badNames(clause: String, found: String)
  /// `format xml`.
  case badFormat(found: String)
  /// `diff yesterday`.
  case badState(found: String)
  /// `preview quit`: only editing commands can be previewed.
  case notPreviewable(String)
  /// `timing maybe`.
  case badSwitch(command: String, found: String)
  case noForceForm(String)
}

extension ParseError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .syntax(let error): error.description
    case .unknownCommand(let name, let suggestion?):
      "unknown command '\(name)'; did you mean '\(suggestion)'?"
    case .unknownCommand(let name, nil): "unknown command '\(name)' (type 'help' for the list)"
    case .missingArgument(let command, let usage): "'\(command)' needs more: usage: \(usage)"
    case .unexpectedArgument(let command, let found, let usage):
      "'\(command)' does not take '\(found)'; usage: \(usage)"
    case .expectedWord(let command, let found): "'\(command)' expects a name, found \(found)"
    case .badCount(let command, let found): "'\(command)' expects a positive count, found '\(found)'"
    case .badStep(let found): "'goto' expects a step number (0 is the start), found '\(found)'"
    case .badSpan(let command, let found):
      "'\(command)' expects a time (30s, 10m, 2h, 3d) or a number of saves (1save, 2saves), found '\(found)'"
    case .field(let error): error.description
    case .missingValue(let command, let field): "'\(command) \(field)' needs a value"
    case .badFilter(let found):
      "expected a filter FIELD OP VALUE (OP one of = != < <= > >= ~), found '\(found)'"
    case .badOperator(let found):
      "'\(found)' has two operators; a filter is FIELD OP VALUE with one of = != < <= > >= ~"
    case .missingFilterValue(let found): "the filter '\(found)' needs a value after its operator"
    case .nullOrdered(let found): "in '\(found)': only =, == and != compare with null"
    case .missingFilter(let command) where command == "assert":
      "'assert' needs at least one filter, like done=false"
    case .missingFilter(let command): "'\(command) … where' needs at least one filter, like done=false"
    case .badLimit(let found): "'limit' expects a count of 0 or more, found '\(found)'"
    case .badNames(let clause, let found):
      "'\(clause)' expects field names separated by commas, found '\(found)'"
    case .badPosition(let command, let found):
      "'\(command)' expects @N (where the record goes) before the record, found '\(found)'"
    case .badFormat(let found): "unknown format '\(found)'; the formats are \(OutputFormat.names)"
    case .badSwitch(let command, let found): "'\(command)' expects on or off, found '\(found)'"
    case .notPreviewable(let name):
      "'preview' takes a command that edits (set, unset, add, remove, new, insert, delete, their 'where' forms, "
        + "undo, redo, goto, earlier, later, rollback), not '\(name)'"
    case .badState(let found):
      "'diff' expects a state: a step number, saved, now, start or a time back (10m), found '\(found)'"
    case .noForceForm(let name): "'\(name)!' does not exist; '!' goes with save, export, open and quit"
    }
  }
}
