import RecordKit

/// `help` and `help COMMAND`, from the command table, wrapped to `width` columns (the
/// terminal's, or 80 when the output is not a terminal).
enum HelpRenderer {
  /// `fieldNames` and `explainField` are the kind's fields and `help FIELD` for one of
  /// them; a command's name wins over a field's.
  static func help(
    _ topic: String?, width: Int = 80, fieldNames: [String] = [],
    explainField: (String) -> String? = { _ in nil }
  ) throws(SessionError) -> String {
    let width = max(width, 20)
    guard let topic else { return overview(width: width) }
    guard let spec = CommandTable.spec(named: topic) else {
      if let text = explainField(topic) { return text }
      throw .unknownHelpTopic(
        topic, suggestion: Suggestion.closest(to: topic, among: CommandTable.allNames + fieldNames))
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

  /// `help FIELD`: `field year: integer, >= 1450, <= 2100`, the description, the values.
  /// `help` where a topic may also be one of the kind's fields: its type, rules,
  /// description and the values completion offers.
  static func help<Root: Record>(_ topic: String?, fields table: FieldTable<Root>, width: Int = 80)
    throws(SessionError) -> String
  {
    try help(topic, width: width, fieldNames: table.names) { name in
      table.field(named: name).map { fieldHelp($0, width: max(width, 20)) }
    }
  }

  private static func fieldHelp<Root: Record>(_ field: any FieldAccessor<Root>, width: Int) -> String {
    var lines = TextWrap.wrap(
      "field \(field.name): \(RecordRenderer.typeAndRules(field))", width: width, rest: "  ")
    if let about = field.about {
      lines += TextWrap.wrap(TextCell.escaped(about), width: width, first: "  ", rest: "  ")
    }
    if !field.completions.isEmpty {
      lines += TextWrap.wrap(
        "values: " + field.completions.map(TextCell.escaped).joined(separator: ", "), width: width,
        first: "  ",
        rest: "    ")
    }
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
