import RecordKit

/// Turns input text into `ShellCommand`s: tokenizes, looks the command up in
/// the command table, and lets its entry parse the arguments.
public enum ShellParser {
  /// The commands on one line (`;` separates them; blank and comment-only lines give none).
  public static func parse(_ line: String, context: ParseContext) throws(ParseError) -> [ShellCommand] {
    try parse(Result { () throws(TokenizerError) in try Tokenizer.tokenize(line) }, context: context)
  }

  /// The commands of a line already tokenized (the script runner tokenizes once
  /// to learn whether a line continues).
  static func parse(_ tokenized: Result<[TokenizedCommand], TokenizerError>, context: ParseContext)
    throws(ParseError) -> [ShellCommand]
  {
    let commands: [TokenizedCommand]
    switch tokenized {
    case .success(let value): commands = value
    case .failure(let error): throw .syntax(error)
    }
    var result: [ShellCommand] = []
    result.reserveCapacity(commands.count)
    for command in commands {
      result.append(try parse(command, context: context))
    }
    return result
  }

  static func parse(_ command: TokenizedCommand, context: ParseContext) throws(ParseError) -> ShellCommand {
    guard let first = command.tokens.first else { throw .unknownCommand("", suggestion: nil) }
    guard case .word(var name) = first.value else {
      throw .unknownCommand(first.value.description, suggestion: nil)
    }
    var force = false
    if name.hasSuffix("!"), name.count > 1 {
      name.removeLast()
      force = true
    }
    guard let spec = CommandTable.spec(named: name) else {
      throw .unknownCommand(name, suggestion: Suggestion.closest(to: name, among: CommandTable.allNames))
    }
    if force && !spec.hasForceForm { throw .noForceForm(name) }
    var cursor = ArgumentCursor(command: name, usage: spec.usage, tokens: Array(command.tokens.dropFirst()))
    let parsed = try spec.parse(&cursor, context)
    guard force else { return parsed }
    switch parsed {
    case .save(let file, _): return .save(file: file, force: true)
    case .export(let file, let from, let to, _): return .export(file: file, from: from, to: to, force: true)
    case .open(let file, _): return .open(file: file, force: true)
    case .quit: return .quit(force: true)
    default: return parsed
    }
  }
}
