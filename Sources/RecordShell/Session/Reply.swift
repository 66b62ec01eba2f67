/// What running a command gives back. The session never prints: the
/// executable decides where each reply goes.
public enum Reply: Equatable, Sendable {
  /// A result (`show`, `list`, `history`, `help`, "Undid: …"): standard output.
  case output(String)
  /// A result already encoded as UTF-8, without its final newline (records as JSON: a
  /// million of them go to standard output without being made a `String`).
  case outputBytes([UInt8])
  /// A confirmation ("Saved 20 records to tasks.json"): shown at the prompt, not in scripts.
  case info(String)
  /// Something worth knowing that is not a failure: standard error.
  case warning(String)
  /// The runner must run this file as a nested script.
  case source(String)
  /// Leave the shell.
  case quit
}
