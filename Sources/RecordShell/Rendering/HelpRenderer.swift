import RecordKit

/// `help` and `help COMMAND`, from the command table, wrapped to `width` columns (the
/// terminal's, or 80 when the output is not a terminal).
enum HelpRenderer {
  static func help(_ topic: String?, width: Int = 80) throws(SessionError) -> String {
    let width = max(width, 20)
    guard let topic else { return overview(width: width) }
    guard let spec = CommandTable.spec(named: topic) else {
      throw .unknownHelpTopic(topic, suggestion: Suggestion.closest(to: topic, among: CommandTable.allNames))
    }
    var lines = TextWrap.wrap("usage: \(spec.usage)", width: width, rest: "  ")
    lines += TextWrap.wrap(spec.summary, width: width, first: "  ", rest: "  ")
    if !spec.aliases.isEmpty {
      lines += TextWrap.wrap(
        "also: \(spec.aliases.joined(separator: ", "))", width: width, first: "  ", rest: "  ")
    }
    lines.append("examples:")
    // Examples are commands to type: never broken, whatever the width.
    lines += spec.examples.map { "  \($0)" }
    return lines.joined(separator: "\n")
  }

  /// The command list: usage, then the summary in a column, wrapped under itself; when
  /// the terminal is too narrow for the column, each summary goes under its usage.
  static func overview(width: Int = 80) -> String {
    let usageWidth = CommandTable.commands.map(\.usage.count).max() ?? 0
    let column = 2 + usageWidth + 2
    var lines = ["commands:"]
    for command in CommandTable.commands {
      if width - column >= 24 {
        lines += TextWrap.wrap(
          command.summary, width: width, first: "  " + TextCell.padded(command.usage, to: usageWidth) + "  ",
          rest: String(repeating: " ", count: column))
      } else {
        lines += TextWrap.wrap(command.usage, width: width, first: "  ", rest: "    ")
        lines += TextWrap.wrap(command.summary, width: width, first: "      ", rest: "      ")
      }
    }
    lines += TextWrap.wrap(
      "REF is an id, a unique id prefix, or @N (the Nth record). 'help COMMAND' shows examples.", width: width
    )
    lines += TextWrap.wrap(
      "Several commands may share a line, separated by ';'. Lines starting with '#' are comments.",
      width: width)
    return lines.joined(separator: "\n")
  }
}
