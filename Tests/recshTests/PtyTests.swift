import Foundation
import Glibc
import Testing

/// The interactive shell end to end: the real binary on a pseudo-terminal,
/// typed at like a person would. Each test gets a fresh HOME (so no
/// `~/.editrc` of the machine's), a history file of its own or none, no
/// locale settings, and asserts on what the shell did — its output and the
/// file — not on screen layout.
@Suite struct PtyTests {
  static let prompt = "t.json> "
  static let firstSelected = "t.json a1aaaaaa> "

  /// Starts recsh at a terminal in `folder` (which holds the three-task file).
  static func start(
    _ arguments: [String] = ["t.json"], in folder: TempFolder, history: String = "", colour: Bool = false
  ) throws -> PseudoTerminal {
    let home = folder.path("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    var environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home, "TERM": "xterm",
      "RECSH_HISTORY": history,
    ]
    if !colour { environment["NO_COLOR"] = "1" }
    return try PseudoTerminal(arguments, directory: folder.url, environment: environment)
  }

  /// A folder with the three-task file and recsh started on it, at its first prompt.
  static func started(history: String = "") throws -> (TempFolder, PseudoTerminal) {
    let folder = try TempFolder()
    try folder.threeTasks()
    let terminal = try start(in: folder, history: history)
    try terminal.waitForPrompt(prompt)
    return (folder, terminal)
  }

  /// Types `line` and Enter, then waits for the next prompt.
  static func run(_ line: String, on terminal: PseudoTerminal, then prompt: String) throws {
    terminal.send(line + "\r")
    try terminal.waitForPrompt(prompt)
  }

  /// Types `set PREFIX` and Tab, expects the field name's `rest` (and its space), types
  /// `value` and Enter, saves and quits; the shell must exit 0.
  static func setByTabSaveAndQuit(
    _ prefix: String, completes rest: String, value: String, on terminal: PseudoTerminal
  ) throws {
    terminal.send("set \(prefix)\t")
    try terminal.expect(rest)
    terminal.send(value + "\r")
    try terminal.waitForPrompt("*> ")
    try run("save", on: terminal, then: "> ")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func typedCommandsRunAndSave() throws {
    let (folder, terminal) = try Self.started()
    try Self.run("new title hello", on: terminal, then: "*> ")
    terminal.send("show\r")
    try terminal.expect("title     hello")
    try terminal.waitForPrompt("*> ")
    try Self.run("save", on: terminal, then: "> ")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
    #expect(try folder.read("t.json").contains("\"title\": \"hello\""))
  }

  /// A CSV file at the prompt: its columns complete as fields, a cell typed and saved
  /// changes only its bytes.
  @Test func aCSVFilesColumnsCompleteAndAnEditKeepsTheOtherBytes() throws {
    let folder = try TempFolder()
    let original = "id;title;price\r\nb1;\"Dune; a novel\";9.50\r\nb2;Emma;12\r\n"
    _ = try folder.write("books.csv", original)
    let terminal = try Self.start(["books.csv"], in: folder)
    try terminal.waitForPrompt("books.csv> ")
    try Self.run("use b2", on: terminal, then: "books.csv b2> ")
    try Self.setByTabSaveAndQuit("pri", completes: "ce ", value: "13.25", on: terminal)
    #expect(
      try folder.read("books.csv") == "id;title;price\r\nb1;\"Dune; a novel\";9.50\r\nb2;Emma;13.25\r\n")
  }

  @Test func tabCompletesAFieldNameWithATrailingSpace() throws {
    let (folder, terminal) = try Self.started()
    try Self.run("use @1", on: terminal, then: Self.firstSelected)
    try Self.setByTabSaveAndQuit("ti", completes: "tle ", value: "Completed", on: terminal)
    #expect(try folder.read("t.json").contains("\"title\": \"Completed\""))
  }

  /// A bulk edit typed with Tab: `where`, a filter's field and its value complete; the
  /// prompt says what the edit did, and undo takes it back.
  @Test func aBulkEditCompletesItsFilterAndSaysWhatItDid() throws {
    let (folder, terminal) = try Self.started()
    defer { withExtendedLifetime(folder) {} }
    terminal.send("set priority 4 wh\t")
    try terminal.expect("ere ")
    terminal.send("do\t")
    try terminal.expect("ne=")
    terminal.send("f\t")
    try terminal.expect("alse ")
    terminal.send("\r")
    try terminal.expect("Set priority on 1 record (1 matched)")
    try terminal.waitForPrompt("*> ")
    terminal.send("count priority=4 sort\r")
    try terminal.expect("error: expected a filter FIELD OP VALUE")
    try terminal.waitForPrompt("*> ")
    terminal.send("count priority=4\r")
    try terminal.expect("\n1\r\n")
    try terminal.waitForPrompt("*> ")
    terminal.send("undo\r")
    try terminal.expect("Undid: Set priority on 1 record")
    try terminal.waitForPrompt(Self.prompt)
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func twoTabsAfterUseListTheIds() throws {
    let (folder, terminal) = try Self.started()
    defer { withExtendedLifetime(folder) {} }
    terminal.send("use \t\t")
    let listing = try terminal.expect("c3cccccc")
    #expect(listing.contains("a1aaaaaa"))
    #expect(listing.contains("b2bbbbbb"))
    terminal.send("b\t\r")
    try terminal.waitForPrompt("t.json b2bbbbbb> ")
    terminal.send("show\r")
    try terminal.expect("title     two")
    try terminal.waitForPrompt("> ")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func aBoolFieldOffersTrueAndFalse() throws {
    let (folder, terminal) = try Self.started()
    defer { withExtendedLifetime(folder) {} }
    try Self.run("use @1", on: terminal, then: Self.firstSelected)
    terminal.send("set done \t\t")
    let listing = try terminal.expect("true")
    #expect(listing.contains("false"))
    terminal.send("t\t\r")
    try terminal.waitForPrompt("*> ")
    terminal.send("show\r")
    try terminal.expect("done      true")
    try terminal.waitForPrompt("*> ")
    terminal.send("quit!\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func tabCompletesAPathAfterOpen() throws {
    let folder = try TempFolder()
    try folder.write("example.json", "[{\"id\": \"e1eeeeee\", \"title\": \"from example\"}]\n")
    let terminal = try Self.start([], in: folder)
    try terminal.waitForPrompt("(unnamed)> ")
    terminal.send("open ex\t")
    try terminal.expect("ample.json ")
    terminal.send("\r")
    try terminal.expect("Opened example.json (1 record)")
    try terminal.waitForPrompt("example.json> ")
    terminal.send("show @1\r")
    try terminal.expect("title     from example")
    try terminal.waitForPrompt("> ")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func ctrlCCancelsTheTypedLineAndTheNextCommandWorks() throws {
    let (folder, terminal) = try Self.started()
    let before = try folder.read("t.json")
    terminal.send("new title oops")
    try terminal.expect("oops")
    terminal.send("\u{3}")
    try terminal.expect("^C")
    try terminal.waitForPrompt(Self.prompt)
    terminal.send("list\r")
    try terminal.expect("(3 records)")
    try terminal.waitForPrompt(Self.prompt)
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
    #expect(!terminal.output.contains("New record"))
    #expect(try folder.read("t.json") == before)
  }

  @Test func ctrlDWithUnsavedChangesRefusesOnceThenQuits() throws {
    let (folder, terminal) = try Self.started()
    let before = try folder.read("t.json")
    try Self.run("new title unsaved", on: terminal, then: "*> ")
    terminal.send("\u{4}")
    try terminal.expect("1 unsaved change to \"t.json\"")
    try terminal.waitForPrompt("*> ")
    terminal.send("\u{4}")
    #expect(try terminal.waitForExit() == 0)
    #expect(try folder.read("t.json") == before)
  }

  @Test func aLineTypedInOneSessionIsRecalledWithUpInTheNext() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let history = folder.path("history")
    let first = try Self.start(in: folder, history: history)
    try first.waitForPrompt(Self.prompt)
    terminalRuns(first, "show @2", expecting: "title     two")
    try first.waitForPrompt(Self.prompt)
    first.send("quit\r")
    #expect(try first.waitForExit() == 0)
    var status = stat()
    #expect(stat(history, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)

    let second = try Self.start(in: folder, history: history)
    try second.waitForPrompt(Self.prompt)
    second.send("\u{1b}[A")
    try second.expect("quit")
    second.send("\u{1b}[A")
    try second.expect("show @2")
    second.send("\r")
    try second.expect("title     two")
    try second.waitForPrompt(Self.prompt)
    second.send("quit\r")
    #expect(try second.waitForExit() == 0)
  }

  private func terminalRuns(_ terminal: PseudoTerminal, _ line: String, expecting output: String) {
    terminal.send(line + "\r")
    #expect(throws: Never.self) { try terminal.expect(output) }
  }

  @Test func theDefaultHistoryFileIsInAPrivateStateFolder() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let home = folder.path("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home, "TERM": "xterm",
      "NO_COLOR": "1",
    ]
    let terminal = try PseudoTerminal(["t.json"], directory: folder.url, environment: environment)
    try terminal.waitForPrompt(Self.prompt)
    try Self.run("list", on: terminal, then: Self.prompt)
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
    var status = stat()
    #expect(stat(home + "/.local/state/recsh", &status) == 0)
    #expect(status.st_mode & 0o777 == 0o700)
    #expect(
      try String(contentsOfFile: home + "/.local/state/recsh/history", encoding: .utf8).contains("list"))
  }

  @Test func typedNonASCIITextArrivesIntact() throws {
    let (folder, terminal) = try Self.started()
    try Self.run("use @1", on: terminal, then: Self.firstSelected)
    try Self.run("set title \"café 日本\"", on: terminal, then: "*> ")
    try Self.run("save", on: terminal, then: "> ")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
    #expect(try folder.read("t.json").contains("\"title\": \"café 日本\""))
  }

  @Test func aSchemasEnumValuesAreOfferedForItsField() throws {
    let folder = try TempFolder()
    try folder.write(
      "books.schema.json",
      #"{"properties": {"title": {"type": "string"}, "genre": {"enum": ["fiction", "history", "science fiction"], "description": "shelf"}, "read": {"type": "boolean"}}}"#
    )
    try folder.write("books.json", "[{\"title\": \"Dune\", \"read\": false}]\n")
    let terminal = try Self.start(["books.json"], in: folder)
    // The kind is said at the prompt on start, with why.
    try terminal.expect("kind books, from the schema books.schema.json (the schema beside the file)\r\n")
    try terminal.waitForPrompt("books.json> ")
    try Self.run("use @1", on: terminal, then: "books.json @1> ")
    terminal.send("set genre \t\t")
    // The values, and the field's description among them.
    try terminal.expect("(shelf)")
    // libedit lists in columns, then draws the line again: by then all of it is here.
    try terminal.expect("books.json @1> set genre ")
    let listing = terminal.output
    #expect(listing.contains("fiction") && listing.contains("science fiction") && listing.contains("history"))
    terminal.send("hi\t")
    try terminal.expect("story ")
    terminal.send("read \t\t")
    try terminal.expect("false")
    terminal.send("tr\t\r")
    try terminal.waitForPrompt("books.json @1*> ")
    terminal.send("quit!\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func controlCharactersInRecordsNeverReachTheTerminalRaw() throws {
    let folder = try TempFolder()
    try folder.write(
      "t.json",
      "[{\"id\": \"a1aaaaaa\", \"title\": \"\\u001b]0;x\\u0007\", \"done\": false, \"tags\": [\"\\u001b]0;x\\u0007\", \"w\"]}]\n"
    )
    let terminal = try Self.start(in: folder)
    try terminal.waitForPrompt(Self.prompt)
    terminal.send("show @1\r")
    try terminal.expect("title     \\u{1b}]0;x\\u{7}")
    try terminal.waitForPrompt(Self.prompt)
    terminal.send("list\r")
    try terminal.expect("(1 record)")
    try terminal.waitForPrompt(Self.prompt)
    try Self.run("use @1", on: terminal, then: Self.firstSelected)
    terminal.send("remove tags \t\t")
    try terminal.expect("\"\\u{1b}]0;x\\u{7}\"")
    terminal.send("\u{15}begin \"\\u{1b}]0;x\\u{7}\"\r")
    try terminal.waitForPrompt("(\\u{1b}]0;x\\u{7})> ")
    terminal.send("rollback\r")
    try terminal.waitForPrompt(Self.firstSelected)
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
    #expect(!terminal.output.contains("\u{1b}]0;x"))
  }

  @Test func anUnterminatedQuoteContinuesOnTheNextLine() throws {
    let (folder, terminal) = try Self.started()
    try Self.run("use @1", on: terminal, then: Self.firstSelected)
    try Self.run("set title \"two", on: terminal, then: "...> ")
    try Self.run("lines\"", on: terminal, then: "*> ")
    try Self.run("save", on: terminal, then: "> ")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
    #expect(try folder.read("t.json").contains("\"title\": \"two\\nlines\""))
  }

  @Test func ctrlCAtAContinuationPromptDropsTheWholeInput() throws {
    let (folder, terminal) = try Self.started()
    let before = try folder.read("t.json")
    try Self.run("new title \"half", on: terminal, then: "...> ")
    terminal.send("way")
    try terminal.expect("way")
    terminal.send("\u{3}")
    try terminal.expect("^C")
    try terminal.waitForPrompt(Self.prompt)
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
    #expect(!terminal.output.contains("New record"))
    #expect(try folder.read("t.json") == before)
  }

  @Test func aResizeAndAStopAndContinueKeepTheLine() throws {
    let (folder, terminal) = try Self.started()
    terminal.send("new tit")
    try terminal.expect("new tit")
    terminal.resize(rows: 30, columns: 100)
    kill(terminal.pid, SIGSTOP)
    kill(terminal.pid, SIGCONT)
    terminal.send("le resized\r")
    try terminal.expect("New record")
    try terminal.waitForPrompt("*> ")
    try Self.run("save", on: terminal, then: "> ")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
    #expect(try folder.read("t.json").contains("\"title\": \"resized\""))
  }

  @Test func thePromptIsColouredUnlessNoColorIsSet() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let coloured = try Self.start(in: folder, colour: true)
    try coloured.waitForPrompt("> ")
    coloured.send("quit\r")
    #expect(try coloured.waitForExit() == 0)
    #expect(coloured.output.contains("\u{1b}[1mt.json\u{1b}[0m"))

    let plain = try Self.start(in: folder)
    try plain.waitForPrompt(Self.prompt)
    plain.send("quit\r")
    #expect(try plain.waitForExit() == 0)
    #expect(!plain.output.contains("\u{1b}[1m"))
  }

  /// `-c` at a terminal is a script: no prompt, no escape sequences, no
  /// history, and libedit never starts (a FIFO as ~/.editrc would block it).
  @Test func commandsFromTheCommandLineAtATerminalNeverStartLibedit() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let home = folder.path("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    #expect(mkfifo(home + "/.editrc", 0o600) == 0)
    let environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home, "TERM": "xterm",
    ]
    let terminal = try PseudoTerminal(
      ["t.json", "-c", "list"], directory: folder.url, environment: environment)
    #expect(try terminal.waitForExit() == 0)
    #expect(terminal.output.contains("(3 records)"))
    #expect(!terminal.output.contains("\u{1b}"))
    #expect(!terminal.output.contains("> "))
    #expect(!FileManager.default.fileExists(atPath: home + "/.local"))
  }
}

extension PtyTests {
  /// `help` wraps to the terminal's width, as it is when the command runs.
  @Test func helpWrapsToTheTerminalsWidth() throws {
    let (folder, terminal) = try Self.started()
    defer { withExtendedLifetime(folder) {} }
    terminal.resize(rows: 40, columns: 50)
    terminal.send("help\r")
    let shown = try terminal.expect("are comments.")
    try terminal.waitForPrompt("> ")
    let lines = shown.components(separatedBy: "\r\n").dropFirst()
    #expect(lines.count > 25)
    for line in lines {
      #expect(line.count <= 50, "\(line)")
    }
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
  }
}
