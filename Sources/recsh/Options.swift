import RecordKit
import RecordShell

/// The shell's command line, as `CommandLineTable.shell` declares it, read
/// (`ParsedCommandLine`) into the values the shell runs with.
struct Options: Equatable {
  var file: String?
  /// The `-c` texts as the arguments' bytes: they need not be UTF-8, and the script
  /// runner refuses a line that is not, where a `String` would hold U+FFFD instead.
  var commands: [[UInt8]] = []
  var script: String?
  var keepGoing = false
  var echo = false
  /// `-q`: no progress display (errors and warnings stay).
  var quiet = false
  /// `--kind`: a name `KindRegistry` knows; `nil` lets the file decide (`KindChoice`).
  var kind: String?
  /// `--schema`: a JSON Schema file whose kind the records are.
  var schema: String?
  var undoLimit = 10_000
  var help = false
  var version = false
  var recover = false
  var discardJournal = false
  /// `--no-undo-file`, or `RECSH_UNDO_FILE=off` in the environment: the undo history is
  /// not kept across sessions (the log is only the crash journal, removed at a normal
  /// exit; one left from earlier is set aside).
  var keepsHistory = true
  /// `--format`: how results print.
  var format = OutputFormat.table
  /// `--timing`: each command's wall time on standard error.
  var timing = false
  /// `--state-dir`: where the history, journal and lock of the file are kept, for this run.
  var stateDir: String?
  /// `--layout`: how FILE holds its records; `nil`: its name says (`RecordLayout(path:)`).
  var layout: RecordLayout?

  /// The state folder of this run: `--state-dir`, else the environment's (`StateFolder`).
  var stateFolder: StateFolder? { StateFolder.forProcess(explicit: stateDir) }
}

extension Options {
  /// The shell's command line (`CommandLineTable.shell`) read into options, or the first
  /// thing wrong with it.
  static func parse(_ arguments: [String]) throws(CommandLineError) -> Options {
    Options(try ParsedCommandLine.parse(arguments.map { Array($0.utf8) }, as: CommandLineTable.shell))
  }

  /// The options of a command line already read as the shell's (`CommandLineTable.shell`),
  /// whose values it checked.
  init(_ parsed: ParsedCommandLine) {
    self.init()
    file = parsed.operands.first
    commands = parsed.all(.command)
    script = parsed.text(.script)
    keepGoing = parsed.has(.keepGoing)
    echo = parsed.has(.echo)
    quiet = parsed.has(.quiet)
    kind = parsed.text(.kind)
    schema = parsed.text(.schema)
    undoLimit = parsed.text(.undoLimit).flatMap { Int($0) } ?? undoLimit
    help = parsed.has(.help)
    version = parsed.has(.version)
    recover = parsed.has(.recover)
    discardJournal = parsed.has(.discardJournal)
    keepsHistory = !parsed.has(.noUndoFile)
    timing = parsed.has(.timing)
    stateDir = parsed.text(.stateDir)
    layout = parsed.text(.layout).flatMap(RecordLayout.init(name:))
    format = parsed.text(.format).flatMap(OutputFormat.init(rawValue:)) ?? format
  }
}
