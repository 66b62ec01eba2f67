import RecordKit
import RecordShell

/// The command line (see `usage`), parsed. Options and FILE may come in any
/// order; `--` ends the options.
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

  /// The state folder of this run: `--state-dir`, else the environment's (`StateFolder`).
  var stateFolder: StateFolder? { StateFolder.forProcess(explicit: stateDir) }

  /// Bad usage: printed with a pointer to `--help`, exit status 2.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    var description: String
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    try parse(bytes: arguments.map { Array($0.utf8) })
  }

  /// The raw arguments (`argv` without the program name): options and paths are read
  /// as text, `-c` values are kept as bytes.
  static func parse(bytes rawArguments: [[UInt8]]) throws(UsageError) -> Options {
    let arguments = rawArguments.map { String(decoding: $0, as: UTF8.self) }
    var options = Options()
    var index = 0
    var optionsEnded = false
    func value(for name: String, inline: String?) throws(UsageError) -> String {
      if let inline { return inline }
      index += 1
      guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      defer { index += 1 }
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        guard options.file == nil else {
          throw UsageError(
            description: "one data file at most; got \"\(options.file ?? "")\" and \"\(argument)\"")
        }
        options.file = argument
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      switch name {
      case "-c", "--command":
        _ = try value(for: name, inline: inline)
        let raw = rawArguments[index]
        // `--command=TEXT`: the bytes after the first `=`.
        options.commands.append(
          inline == nil ? raw : Array(raw[((raw.firstIndex(of: UInt8(ascii: "=")) ?? -1) + 1)...]))
      case "-s", "--script":
        guard options.script == nil else { throw UsageError(description: "-s is given twice") }
        options.script = try value(for: name, inline: inline)
      case "-k", "--keep-going": options.keepGoing = true
      case "-e", "--echo": options.echo = true
      case "-q", "--quiet": options.quiet = true
      case "--kind":
        let kind = try value(for: name, inline: inline)
        guard KindRegistry.kind(named: kind) != nil else {
          throw UsageError(
            description: "unknown kind \"\(kind)\"; the kinds are \(KindRegistry.namesInWords)")
        }
        options.kind = kind
      case "--schema":
        options.schema = try value(for: name, inline: inline)
      case "--undo-limit":
        let text = try value(for: name, inline: inline)
        guard let limit = Int(text), limit >= 0 else {
          throw UsageError(description: "--undo-limit needs a number of steps (0: no limit), not \"\(text)\"")
        }
        options.undoLimit = limit
      case "-h", "--help": options.help = true
      case "--version": options.version = true
      case "--recover": options.recover = true
      case "--discard-journal": options.discardJournal = true
      case "--no-undo-file": options.keepsHistory = false
      case "--timing": options.timing = true
      case "--state-dir": options.stateDir = try value(for: name, inline: inline)
      case "--format":
        let name = try value(for: name, inline: inline)
        guard let format = OutputFormat(rawValue: name) else {
          throw UsageError(description: "unknown format \"\(name)\"; the formats are \(OutputFormat.names)")
        }
        options.format = format
      default:
        if !argument.hasPrefix("--"), argument.count > 2 {
          // Clustered short flags: -ke.
          for flag in argument.dropFirst() {
            switch flag {
            case "k": options.keepGoing = true
            case "e": options.echo = true
            case "q": options.quiet = true
            case "h": options.help = true
            default: throw UsageError(description: "unknown option -\(flag) in \"\(argument)\"")
            }
          }
          continue
        }
        throw UsageError(description: "unknown option \"\(argument)\"")
      }
    }
    if options.recover && options.discardJournal {
      throw UsageError(description: "--recover and --discard-journal cannot be used together")
    }
    if options.kind != nil && options.schema != nil {
      throw UsageError(description: "--kind and --schema cannot be used together")
    }
    if options.script != nil && !options.commands.isEmpty {
      throw UsageError(description: "-c and -s cannot be used together")
    }
    return options
  }

  static let usage = """
    usage: recsh [options] [FILE]
           recsh diff [--format FORMAT] [--kind KIND | --schema SCHEMA] OLD NEW
           recsh merge [--path PATH] [--kind KIND | --schema SCHEMA] BASE OURS THEIRS [-o OUT]

    A record shell: edit the records of a JSON file (an array of objects: tasks,
    contacts, books, anything; or JSON Lines, FILE.jsonl), with undo.

      FILE                   the JSON file to edit (missing: starts empty and is
                             created on the first save; none: an unnamed document
                             that 'save FILE' names)
      -c, --command CMDS     run CMDS (separated by ';' or newlines), then exit
      -s, --script SCRIPT    run the commands in SCRIPT, then exit
      -k, --keep-going       in a script, go on after a failed command
      -e, --echo             print each script command before running it
      -q, --quiet            no progress display for a long open or save
          --kind KIND        record kind: \(KindRegistry.shipped.map { $0.kind }.joined(separator: " or "))
          --schema SCHEMA    the records' kind is the JSON Schema in SCHEMA
          --undo-limit N     keep at most N undo steps (default 10000; 0: no limit)
          --recover          replay the unsaved steps a crashed session left
          --discard-journal  set those steps aside as a backup (the saved history stays)
          --no-undo-file     do not keep the undo history for the next session
                             (also RECSH_UNDO_FILE=off)
          --format FORMAT    how results print: table (the default), json, jsonl,
                             csv or tsv (also the 'format' command)
          --timing           after each command, its wall time on standard error
          --state-dir DIR    where the history, journal and lock of FILE are kept
                             (default: $RECSH_STATE_DIR, else $XDG_STATE_HOME/recsh,
                             else ~/.local/state/recsh)
      -h, --help             this help
          --version          print the version

    Without -c or -s, recsh reads commands from standard input: a prompt on a
    terminal, a script from a pipe. Type 'help' at the prompt for the commands.

    Without --kind or --schema, the file decides its kind: a schema beside it
    (books.schema.json for books.json), else task or contact when its records
    fit one, else a kind inferred from the records ('fields' says which and why).

    Every change is logged in recsh's state folder (see --state-dir; nothing is
    written beside FILE) before recsh shows it done, so a crash loses nothing;
    the log keeps the undo history for the next session (undo, redo, goto N,
    earlier 10m, history all, history info). Only one recsh edits a file at a
    time; a session that changes nothing writes nothing.

    examples:
      recsh tasks.json                       edit interactively
      recsh tasks.json -c 'list done=false'  print the open tasks
      recsh tasks.json -c 'use @1; set done true; save'
      recsh -s weekly.rsh tasks.json         run a script
      recsh --kind contact contacts.json
      recsh books.json -c schema > books.schema.json

    exit status:
      0  success
      1  a command failed, or a group was left open at the end of input
      2  bad command-line usage
      3  the data file could not be read or is invalid, or cannot be edited now
         (another recsh holds it, another session changed it, or the state
         folder is unsafe)

    'recsh diff OLD NEW' prints the records added, deleted and changed between two
    files, matched by key; it exits 0 when they are equal, 1 when they differ and 3
    when one cannot be read (a file named diff is opened as ./diff).

    'recsh merge BASE OURS THEIRS' merges two versions of a file by record and
    field into OURS (git's merge driver: recsh merge --path %P %O %A %B); it exits
    0 when merged, 1 with conflicts (kept in the state folder: open the file in
    recsh, 'conflicts', 'resolve'), 3 when a file cannot be read or written.
    """
}
