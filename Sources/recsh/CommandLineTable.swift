import RecordKit
import RecordShell

/// recsh's command lines, each declared once (`CommandLineSpec`): the shell, `recsh diff`
/// and `recsh merge`. The first argument names a subcommand when it is one of theirs (a
/// file named `diff` is opened as `./diff`).
enum CommandLineTable {
  static let all: [CommandLineSpec] = [shell, diff, merge]

  /// The subcommand `name` selects, if any.
  static func subcommand(named name: String) -> CommandLineSpec? {
    all.first { $0.name != nil && $0.name == name }
  }

  /// The usage lines of every command line, as `recsh --help` starts.
  static var synopses: [String] { all.map(\.synopsis) }

  static let shell = CommandLineSpec(
    name: nil,
    synopsis: "recsh [options] [FILE]",
    about: [
      "A record shell: edit the records of a JSON file (an array of objects: tasks, contacts, books, "
        + "anything), JSON Lines (FILE.jsonl), CSV or TSV (FILE.csv, FILE.tsv), with undo."
    ],
    operands: [
      (
        "FILE",
        "the file to edit: JSON, JSON Lines, CSV or TSV by its name (missing: starts empty and is "
          + "created on the first save; none: an unnamed document that 'save FILE' names)"
      )
    ],
    options: [
      OptionSpec(
        key: .command, short: "c", long: "command", value: .text(placeholder: "CMDS"),
        help: "run CMDS (separated by ';' or newlines), then exit", repetition: .collect),
      OptionSpec(
        key: .script, short: "s", long: "script", value: .text(placeholder: "SCRIPT"),
        help: "run the commands in SCRIPT, then exit", repetition: .once),
      OptionSpec(
        key: .keepGoing, short: "k", long: "keep-going", help: "in a script, go on after a failed command"),
      OptionSpec(key: .echo, short: "e", long: "echo", help: "print each script command before running it"),
      OptionSpec(key: .quiet, short: "q", long: "quiet", help: "no progress display for a long open or save"),
      .kind,
      .schema,
      OptionSpec(
        key: .undoLimit, long: "undo-limit",
        value: .count(placeholder: "N", meaning: "a number of steps (0: no limit)"),
        help: "keep at most N undo steps (default 10000; 0: no limit)"),
      OptionSpec(key: .recover, long: "recover", help: "replay the unsaved steps a crashed session left"),
      OptionSpec(
        key: .discardJournal, long: "discard-journal",
        help: "set those steps aside as a backup (the saved history stays)"),
      OptionSpec(
        key: .noUndoFile, long: "no-undo-file",
        help: "do not keep the undo history for the next session (also RECSH_UNDO_FILE=off)"),
      .format,
      OptionSpec(
        key: .layout, long: "layout",
        value: .choice(
          placeholder: "LAYOUT", noun: "layout", names: RecordLayout.allCases.map(\.name),
          listed: RecordLayout.allCases.map(\.name).joined(separator: "|")),
        help: "how FILE holds its records, whatever its name: json (an array), jsonl (a record a "
          + "line), csv or tsv (a header row, a record a row)"),
      OptionSpec(key: .timing, long: "timing", help: "after each command, its wall time on standard error"),
      .stateDir,
      .help,
      OptionSpec(key: .version, long: "version", help: "print the version"),
    ],
    exclusive: [(.recover, .discardJournal), (.kind, .schema), (.command, .script)],
    operandCheck: { operands in
      operands.count > 1 ? .secondFile(first: operands[0], second: operands[1]) : nil
    },
    epilogue: [
      .paragraph(
        "Without -c or -s, recsh reads commands from standard input: a prompt on a terminal, a script "
          + "from a pipe. Type 'help' at the prompt for the commands."),
      .paragraph(
        "Without --kind or --schema, the file decides its kind: a schema beside it (books.schema.json "
          + "for books.json), else task or contact when its records fit one, else a kind inferred from "
          + "the records ('fields' says which and why)."),
      .paragraph(
        "Every change is logged in recsh's state folder (see --state-dir; nothing is written beside "
          + "FILE) before recsh shows it done, so a crash loses nothing; the log keeps the undo history "
          + "for the next session (undo, redo, goto N, earlier 10m, history all, history info). Only one "
          + "recsh edits a file at a time; a session that changes nothing writes nothing."),
      .lines([
        "examples:",
        "  recsh tasks.json                       edit interactively",
        "  recsh tasks.json -c 'list done=false'  print the open tasks",
        "  recsh tasks.json -c 'use @1; set done true; save'",
        "  recsh -s weekly.rsh tasks.json         run a script",
        "  recsh --kind contact contacts.json",
        "  recsh books.json -c schema > books.schema.json",
        "",
        "exit status:",
        "  0  success",
        "  1  a command failed, or a group was left open at the end of input",
        "  2  bad command-line usage",
        "  3  the data file could not be read or is invalid, or cannot be edited now",
        "     (another recsh holds it, another session changed it, or the state",
        "     folder is unsafe)",
      ]),
      .paragraph(
        "'recsh diff OLD NEW' prints the records added, deleted and changed between two files, matched "
          + "by key; it exits 0 when they are equal, 1 when they differ and 3 when one cannot be read (a "
          + "file named diff is opened as ./diff). 'recsh diff --help' says more."),
      .paragraph(
        "'recsh merge BASE OURS THEIRS' merges two versions of a file by record and field into OURS "
          + "(git's merge driver: recsh merge --path %P %O %A %B); it exits 0 when merged, 1 with "
          + "conflicts (kept in the state folder: open the file in recsh, 'conflicts', 'resolve'), 3 when "
          + "a file cannot be read or written. 'recsh merge --help' says more."),
    ])

  static let diff = CommandLineSpec(
    name: "diff",
    synopsis: "recsh diff [--format FORMAT] [--kind KIND | --schema SCHEMA] OLD NEW",
    about: [
      "Prints the records added, deleted and changed between two files of one kind, matched by key (by "
        + "position for a kind without one), as the shell's 'diff' prints them."
    ],
    operands: [
      ("OLD NEW", "the two files; /dev/null is a file of no records"),
      (
        "git's seven",
        "PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE, as git calls an external diff "
          + "program: the difference under a header naming PATH, exit 0; PATH decides the layout and the "
          + "schema beside it"
      ),
    ],
    options: [.format, .kind, .schema, .help],
    exclusive: [(.kind, .schema)],
    operandCheck: { operands in
      operands.count == 2 || operands.count == 7
        ? nil : .operands(subcommand: "diff", expected: "two files (or git's seven arguments)")
    },
    epilogue: [
      .lines([
        "exit status:",
        "  0  the files hold the same records (or called by git)",
        "  1  they differ",
        "  2  bad command-line usage",
        "  3  a file cannot be read, or is not of the kind",
      ])
    ])

  static let merge = CommandLineSpec(
    name: "merge",
    synopsis: "recsh merge [--path PATH] [--kind KIND | --schema SCHEMA] BASE OURS THEIRS [-o OUT]",
    about: [
      "Merges two versions of a file by record and field into OURS: a field changed on one side is "
        + "taken, changed alike on both taken once, changed differently a conflict (OURS' value is "
        + "written, the conflicts are kept in the state folder). Made to be git's merge driver: recsh "
        + "merge --path %P %O %A %B."
    ],
    operands: [("BASE OURS THEIRS", "the common ancestor and the two versions")],
    options: [
      OptionSpec(
        key: .path, long: "path", value: .text(placeholder: "PATH"),
        help: "the file's place in the work tree: decides the layout, the schema beside it and where "
          + "the conflicts are kept"),
      .kind,
      .schema,
      OptionSpec(
        key: .output, short: "o", value: .text(placeholder: "OUT"),
        help: "write the result to OUT instead of over OURS"),
      OptionSpec(
        key: .stateDir, long: "state-dir", value: .text(placeholder: "DIR"),
        help: "where the conflicts are kept (default as for recsh FILE)"),
      .help,
    ],
    exclusive: [(.kind, .schema)],
    operandCheck: { operands in
      operands.count == 3 ? nil : .operands(subcommand: "merge", expected: "three files: BASE OURS THEIRS")
    },
    epilogue: [
      .lines([
        "exit status:",
        "  0  merged",
        "  1  merged with conflicts, each listed ('key field: base → ours | theirs')",
        "  2  bad command-line usage",
        "  3  a file cannot be read or written, the files are of different kinds, or the",
        "     kind has no key to match records by",
      ])
    ])
}
