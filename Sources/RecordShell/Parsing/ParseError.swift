import RecordKit

/// Why a line is not a command. Worded in one place, `description`.
public enum ParseError: Error, Equatable, Sendable {
  case syntax(TokenizerError)
  case unknownCommand(String, suggestion: String?)
  case missingArgument(command: String, usage: String)
  case unexpectedArgument(command: String, found: String, usage: String)
  case expectedWord(command: String, found: String)
  case badCount(command: String, found: String)
  case field(FieldError)
  case missingValue(command: String, field: String)
  case badFilter(String)
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
    case .field(let error): error.description
    case .missingValue(let command, let field): "'\(command) \(field)' needs a value"
    case .badFilter(let found): "expected FIELD=VALUE, found '\(found)'"
    case .noForceForm(let name): "'\(name)!' does not exist; '!' goes with save, open and quit"
    }
  }
}
