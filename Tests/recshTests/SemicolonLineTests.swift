import Foundation
import Testing

@testable import RecordShell

/// Commands joined with `;` on one line behave exactly as the same commands on lines of
/// their own: the same output, the same diagnostics (but for the line number in their
/// location), the same exit status and the same files. Each scenario runs both ways, with
/// and without `-k`, and together the scenarios use every command of the command table.
@Suite struct SemicolonLineTests {
  struct Scenario: CustomTestStringConvertible, Sendable {
    var commands: [String]
    /// Files besides t.json, by name.
    var files: [String: String] = [:]

    var testDescription: String { commands.joined(separator: "; ") }
  }

  static let scenarios: [Scenario] = [
    // A custom field of the record the line's own `use` selects.
    Scenario(commands: ["use c3", "set color blue", "show"]),
    Scenario(commands: ["use c3", "unset color", "show c3", "set +color green", "show"]),
    Scenario(commands: ["use b2", "add tags home", "remove tags work", "show", "remove tags nope", "show"]),
    Scenario(commands: [
      "new title fresh", "set +size 3", "undo", "undo", "redo 2", "history", "delete", "undo 3", "list",
    ]),
    Scenario(commands: ["delete b2", "undo", "redo", "undo 5", "redo 5", "list", "save", "show b2"]),
    Scenario(commands: [
      "begin review", "use a1", "set priority 4", "begin inner", "set title x", "rollback", "end", "history",
      "undo", "show a1",
    ]),
    Scenario(commands: ["begin left open", "use a1", "set done true", "history"]),
    Scenario(commands: ["use a1", "set title changed", "save", "save other.json", "open! t.json", "show a1"]),
    Scenario(commands: ["use a1", "set title z", "open t.json", "open! t.json", "show a1"]),
    Scenario(commands: [
      "fields", "schema", "help", "help set", "list done=false", "ls title=two", "list colr=red",
    ]),
    Scenario(
      commands: ["source s.rsh", "show", "source missing.rsh", "show a1"],
      files: ["s.rsh": "use b2\nset title sourced\n"]),
    Scenario(commands: ["use a1", "set title q", "quit", "show"]),
    Scenario(commands: ["use a1", "exit", "show"]),
    Scenario(commands: ["use a1", "set title q", "quit!", "show"]),
    Scenario(commands: ["use a1", "set titel x", "set title y", "save", "show a1"]),
    Scenario(commands: ["use zz", "show", "delete zz", "list"]),
    Scenario(commands: ["conflicts", "resolve a1 title ours", "conflicts", "list"]),
    Scenario(commands: ["undo", "redo", "end", "rollback", "history"]),
    Scenario(commands: ["use a1", "set priority 9", "set priority 3", "show"]),
    Scenario(commands: ["use a1", "begin g", "undo", "open t.json", "end", "quit", "show"]),
    Scenario(commands: [
      "use a1", "set title one", "undo", "set title two", "goto 1", "show", "earlier 1h", "later 1h",
      "goto 9", "history all", "earlier 1save", "later 2saves", "history clear",
    ]),
    // Queries, bulk edits and the output settings: a bulk edit's reach depends on what
    // the commands before it on the line did.
    Scenario(commands: [
      "count done=false", "set priority 5 where done=false", "count priority=5", "undo", "format jsonl",
      "list priority<3 sort -priority limit 2 fields id,priority", "format", "timing off",
      "add tags x where priority>=0", "delete where tags=x", "count", "undo", "format csv", "list sort title",
      "unset color where color!=null", "remove tags x where tags=x", "history",
    ]),
    Scenario(commands: [
      "assert a1 priority=1", "use b2", "assert tags=work", "new id z9 title made", "assert z9 title=made",
      "assert a1 priority=2", "list fields id,title", "diff", "diff 0 1", "diff 9", "preview undo",
      "preview set title w where id=a1", "preview save", "history", "log a1", "log title",
      "blame", "blame zz",
    ]),
    Scenario(commands: [
      #"insert @1 '{"id": "i1", "title": "first"}'"#, "assert @1 title==first", "export e1.rsh",
      "export e1.rsh",
      "export! e1.rsh 0 now", #"insert '{"id": "i1"}'"#, "insert x y", "export e2.rsh 99", "list fields id",
    ]),
  ]

  @Test(arguments: scenarios)
  func aLineOfCommandsActsAsTheCommandsOnLinesOfTheirOwn(_ scenario: Scenario) throws {
    for flags in [[], ["-k"]] {
      let separate = try Self.run(scenario, text: scenario.commands.joined(separator: "\n"), flags: flags)
      let joined = try Self.run(scenario, text: scenario.commands.joined(separator: "; "), flags: flags)
      #expect(joined.stdout == separate.stdout, "stdout with \(flags)")
      #expect(joined.stderr == separate.stderr, "stderr with \(flags)")
      #expect(joined.status == separate.status, "status with \(flags)")
      #expect(joined.files == separate.files, "files with \(flags)")
    }
  }

  /// The scenarios leave no command of the table untried, so a new command must join them.
  @Test func theScenariosUseEveryCommand() {
    let used = Set(
      Self.scenarios.flatMap { $0.commands }.map { command in
        String(command.prefix { $0 != " " && $0 != "!" })
      })
    for spec in CommandTable.commands {
      for name in [spec.name] + spec.aliases {
        #expect(used.contains(name), "no scenario uses '\(name)'")
      }
    }
  }

  /// A bad escape in the middle of a line: the commands before it run, then the line fails
  /// there, as separate lines would (whose later lines would run only under `-k`; on one
  /// line the text after the break is not read). The column counts from the line's start.
  @Test func aLineThatBreaksOffRunsTheCommandsBeforeTheBreak() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["t.json", "-c", #"use a1; set title fine; save; set title "bad\q"; show"#])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix(#"<command>:1: error: column 45: unknown escape \q"#))
    #expect(try folder.read("t.json").contains(#""title": "fine""#))
  }

  struct Outcome: Equatable {
    var stdout: String
    var stderr: String
    var status: Int32
    var files: [String: String]
  }

  /// Runs `text` with `-c` on a fresh copy of the three tasks; locations and step times
  /// in what it prints are made comparable.
  static func run(_ scenario: Scenario, text: String, flags: [String]) throws -> Outcome {
    let folder = try TempFolder()
    try folder.threeTasks()
    for (name, contents) in scenario.files { try folder.write(name, contents) }
    let result = try folder.recsh(["t.json"] + flags + ["-c", text])
    var files: [String: String] = [:]
    // The history log (in the state folder, not here) holds process ids and times:
    // compared as what it reads back to (the next session's `history all`).
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) {
      files[name] = try folder.read(name)
    }
    let history = try folder.recsh(["t.json", "-c", "history all"])
    files["(history all)"] = normalised(history.stdout + history.stderr)
    return Outcome(
      stdout: normalised(result.stdout), stderr: normalised(result.stderr), status: result.status,
      files: files)
  }

  static func normalised(_ text: String) -> String {
    text.replacing(/<command>:\d+/, with: "<command>:N").replacing(/\d\d:\d\d:\d\d/, with: "HH:MM:SS")
  }
}
