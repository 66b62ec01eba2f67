import RecordKit
import RecordShell

/// Every option any of recsh's command lines knows, by what it means: the one name the
/// parser, the help and the tests share for it.
enum OptionKey: String, CaseIterable, Sendable {
  case command, script, keepGoing, echo, quiet, kind, schema, undoLimit, recover, discardJournal
  case noUndoFile, format, timing, stateDir, help, version, path, output, layout
}

/// One option of a command line (`CommandLineSpec`): its names, the value it takes, what
/// the help says of it, and what giving it twice does.
struct OptionSpec: Sendable {
  /// The value an option takes, which says how it is read and how a wrong one is worded.
  enum Value: Sendable {
    /// Any text; `placeholder` names it in the help (`DIR`).
    case text(placeholder: String)
    /// One of `names` (`--format json`); a wrong one is "unknown NOUN "x"; the NOUNs are
    /// LISTED".
    case choice(placeholder: String, noun: String, names: [String], listed: String)
    /// A whole number ≥ 0; a wrong one is "OPTION needs MEANING, not "x"".
    case count(placeholder: String, meaning: String)

    var placeholder: String {
      switch self {
      case .text(let placeholder), .choice(let placeholder, _, _, _), .count(let placeholder, _): placeholder
      }
    }
  }

  /// What a second occurrence of the option does.
  enum Repetition: Sendable {
    /// The last one given counts.
    case last
    /// Each one counts, in order (`-c A -c B`).
    case collect
    /// A second one is an error (`-s A -s B`).
    case once
  }

  var key: OptionKey
  /// The one-letter name, without its dash (`c` for `-c`).
  var short: Character?
  /// The long name, without its dashes (`command` for `--command`).
  var long: String?
  /// `nil` for a flag, which takes no value.
  var value: Value?
  /// One line (or a few) for `--help`; wrapped to the width there.
  var help: String
  var repetition: Repetition = .last

  /// The name errors and the help give first: `-c` for `-c, --command`, else `--kind`.
  var displayName: String {
    if let short { return "-\(short)" }
    return "--\(long ?? key.rawValue)"
  }

  /// Every spelling that names the option on a command line.
  var spellings: [String] {
    (short.map { ["-\($0)"] } ?? []) + (long.map { ["--\($0)"] } ?? [])
  }

  /// `value` read for this option, or the error a wrong one is.
  func check(_ text: String) throws(CommandLineError) {
    switch value {
    case nil, .text: return
    case .choice(_, let noun, let names, let listed):
      guard names.contains(text) else {
        throw .unknownChoice(option: displayName, noun: noun, value: text, listed: listed)
      }
    case .count(_, let meaning):
      guard let number = Int(text), number >= 0 else {
        throw .notACount(option: displayName, meaning: meaning, value: text)
      }
    }
  }
}

/// The options that more than one command line shares, declared once.
extension OptionSpec {
  static let kind = OptionSpec(
    key: .kind, long: "kind",
    value: .choice(
      placeholder: "KIND", noun: "kind", names: KindRegistry.shipped.map { $0.kind },
      listed: KindRegistry.namesInWords),
    help: "record kind: \(KindRegistry.shipped.map { $0.kind }.joined(separator: " or "))")
  static let schema = OptionSpec(
    key: .schema, long: "schema", value: .text(placeholder: "SCHEMA"),
    help: "the records' kind is the JSON Schema in SCHEMA")
  static let format = OptionSpec(
    key: .format, long: "format",
    value: .choice(
      placeholder: "FORMAT", noun: "format", names: OutputFormat.allCases.map(\.rawValue),
      listed: OutputFormat.names),
    help: "how results print: table (the default), json, jsonl, csv or tsv (also the 'format' command)")
  static let stateDir = OptionSpec(
    key: .stateDir, long: "state-dir", value: .text(placeholder: "DIR"),
    help: "where the history, journal and lock of FILE are kept (default: $RECSH_STATE_DIR, "
      + "else $XDG_STATE_HOME/recsh, else ~/.local/state/recsh)")
  static let help = OptionSpec(key: .help, short: "h", long: "help", help: "this help")
}
