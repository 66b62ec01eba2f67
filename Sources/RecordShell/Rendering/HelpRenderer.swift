import RecordKit

/// `help` and `help COMMAND`, from the command table.
enum HelpRenderer {
  static func help(_ topic: String?) throws(SessionError) -> String {
    guard let topic else { return overview() }
    guard let spec = CommandTable.spec(named: topic) else {
      throw .unknownHelpTopic(topic, suggestion: Suggestion.closest(to: topic, among: CommandTable.allNames))
    }
    var lines = ["usage: \(spec.usage)", "  \(spec.summary)"]
    if !spec.aliases.isEmpty { lines.append("  also: \(spec.aliases.joined(separator: ", "))") }
    lines.append("examples:")
    lines += spec.examples.map { "  \($0)" }
    return lines.joined(separator: "\n")
  }

  static func overview() -> String {
    let width = CommandTable.commands.map(\.usage.count).max() ?? 0
    var lines = ["commands:"]
    lines += CommandTable.commands.map { "  " + TextCell.padded($0.usage, to: width) + "  " + $0.summary }
    lines.append("REF is an id, a unique id prefix, or @N (the Nth record). 'help COMMAND' shows examples.")
    lines.append("Several commands may share a line, separated by ';'. Lines starting with '#' are comments.")
    return lines.joined(separator: "\n")
  }
}
