/// One of recsh's command lines (`recsh`, `recsh diff`, `recsh merge`), declared once:
/// its options, its operands, the options that exclude each other and its help. Parsing
/// (`CommandLineParser`), `--help` (`CommandLineHelp`) and the usage errors are all made
/// from it, so a new option is one entry here.
struct CommandLineSpec: Sendable {
  /// The word after `recsh` that selects it; `nil` for the shell itself.
  var name: String?
  /// The usage line after `usage: ` (`recsh diff [--format FORMAT] … OLD NEW`).
  var synopsis: String
  /// What it does, before the options in `--help`; paragraphs, each wrapped.
  var about: [String]
  /// Its operands, each a name and what it is, listed with the options in `--help`.
  var operands: [(name: String, help: String)]
  var options: [OptionSpec]
  /// Pairs of options that cannot be given together.
  var exclusive: [(OptionKey, OptionKey)]
  /// How many operands it takes (checked after the options); `nil` when any number is
  /// right, and the error when the count is wrong.
  var operandCheck: @Sendable ([String]) -> CommandLineError?
  /// The text after the options in `--help`: paragraphs (wrapped) and blocks of lines
  /// (examples, exit statuses: kept as they are).
  var epilogue: [HelpBlock]

  /// A piece of `--help`: a paragraph is wrapped to the width, lines are not.
  enum HelpBlock: Sendable {
    case paragraph(String)
    case lines([String])
  }

  /// The option `spelling` names (`-c`, `--command`), if any.
  func option(spelled spelling: String) -> OptionSpec? {
    options.first { $0.spellings.contains(spelling) }
  }

  func option(_ key: OptionKey) -> OptionSpec? {
    options.first { $0.key == key }
  }

  /// The usage line for an error: `usage: SYNOPSIS`.
  var usageLine: String { "usage: \(synopsis)" }
}
