import RecordShell

/// `--help` of a command line, made from its declaration (`CommandLineSpec`) and wrapped to
/// `width` columns as the shell's `help` is (`TextWrap`): the usage, what it does, the
/// operands and options in a column (each option's names and value, then its help wrapped
/// under itself), then the epilogue.
enum CommandLineHelp {
  static func text(of spec: CommandLineSpec, width: Int = 80) -> String {
    let width = max(width, 40)
    var lines: [String] = []
    let synopses = spec.name == nil ? CommandLineTable.synopses : [spec.synopsis]
    for (index, synopsis) in synopses.enumerated() {
      lines += TextWrap.wrap(
        synopsis, width: width, first: index == 0 ? "usage: " : "       ", rest: "         ")
    }
    for paragraph in spec.about {
      lines.append("")
      lines += TextWrap.wrap(paragraph, width: width)
    }
    lines.append("")
    let entries =
      spec.operands.map { ("  \($0.name)", $0.help) }
      + spec.options.map { (label(of: $0), $0.help) }
    let labelWidth = min(entries.map(\.0.count).max() ?? 0, 28)
    let column = labelWidth + 2
    for (label, help) in entries {
      if label.count > labelWidth || width - column < 24 {
        lines.append(label)
        lines += TextWrap.wrap(
          help, width: width, first: String(repeating: " ", count: column),
          rest: String(repeating: " ", count: column))
      } else {
        lines += TextWrap.wrap(
          help, width: width, first: TextCell.padded(label, to: labelWidth) + "  ",
          rest: String(repeating: " ", count: column))
      }
    }
    for block in spec.epilogue {
      lines.append("")
      switch block {
      case .paragraph(let text): lines += TextWrap.wrap(text, width: width)
      case .lines(let text): lines += text
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `  -c, --command CMDS` or `      --kind KIND`: short names line up in their own column.
  static func label(of option: OptionSpec) -> String {
    let short = option.short.map { "-\($0)" + (option.long == nil ? "" : ", ") } ?? "    "
    let long = option.long.map { "--\($0)" } ?? ""
    let value = option.value.map { " \($0.placeholder)" } ?? ""
    return "  " + short + long + value
  }
}
