import Foundation
import RecordKit
import Testing

/// The script mode (a pipe, `-s`, `-c`), through the built binary: piped input, `-s`,
/// `-c`, diagnostics, exit statuses and the file on disk.
@Suite struct ScriptModeTests {
  @Test func commandsRunFromAPipeAndResultsGoToStdout() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["t.json"], stdin: "use b2\nshow\n")
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdout.contains("title     two\n"))
    #expect(result.stdout.contains("tags      [work]\n"))
  }

  @Test func optionsAndFileMayComeInAnyOrder() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let first = try folder.recsh(["t.json", "-c", "list"])
    let second = try folder.recsh(["-c", "list", "t.json"])
    #expect(first.stdout == second.stdout)
    #expect(first.stdout.hasPrefix("@   id"))
    #expect(first.stdout.contains("(3 records)"))
  }

  @Test func aScriptStopsAtItsFirstFailedCommandAndLeavesTheFileUntouched() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let before = try folder.read("t.json")
    let result = try folder.recsh(["t.json"], stdin: "use a1\nset titel x\nset title changed\nsave\n")
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("<stdin>:2: error: unknown field 'titel'; did you mean 'title'?\n"))
    #expect(try folder.read("t.json") == before)
  }

  /// A byte that is not UTF-8 is refused with where it is, never stored as U+FFFD;
  /// piped and in a `-s` script alike.
  @Test func bytesThatAreNotUTF8AreRefusedNotReplaced() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let before = try folder.read("t.json")
    let script = Array("use a1\nset title \"caf".utf8) + [0xE9] + Array("\"\nsave\n".utf8)
    let piped = try folder.recsh(["t.json"], stdinBytes: script)
    #expect(piped.status == 1)
    #expect(piped.stderr.hasPrefix("<stdin>:2: error: column 15: invalid UTF-8 at byte offset 14\n"))
    #expect(try folder.read("t.json") == before)
    try Data(script).write(to: folder.url.appendingPathComponent("bad.rsh"))
    let fromFile = try folder.recsh(["-s", "bad.rsh", "t.json"])
    #expect(fromFile.status == 1)
    #expect(fromFile.stderr.hasPrefix("bad.rsh:2: error: column 15: invalid UTF-8 at byte offset 14\n"))
    #expect(try folder.read("t.json") == before)
    // In the continuation line of an open quote too: the whole command fails.
    let continued = Array("use a1\nset title \"two\n".utf8) + [0xFF] + Array("\"\nsave\n".utf8)
    let open = try folder.recsh(["t.json"], stdinBytes: continued)
    #expect(open.status == 1)
    #expect(open.stderr.hasPrefix("<stdin>:2: error: line 2, column 1: invalid UTF-8 at byte offset 0\n"))
    #expect(try folder.read("t.json") == before)
    // The same line in UTF-8 is taken.
    let good = try folder.recsh(["t.json"], stdin: "use a1\nset title \"café\"\nsave\n")
    #expect(good.status == 0)
    #expect(try folder.read("t.json").contains("\"title\": \"café\""))
  }

  /// A piped script longer than two reads of standard input (lines cut between reads) runs
  /// exactly as the same script from a file does, and ends where a model of its edits
  /// says: `use`/`set` pairs, carriage returns, blank and indented lines, a missing id
  /// (`-k`: the record before stays selected), lines that print, a last line without its
  /// line feed.
  @Test func aLongPipedScriptRunsAsTheSameScriptFromAFile() throws {
    let ids = (0..<300).map { "id\($0)" }
    let records = ids.map { #"{"id": "\#($0)", "title": "t"}"# }
    var generator = SplitMix64(seed: 5)
    var titles = Dictionary(uniqueKeysWithValues: ids.map { ($0, "t") })
    var script = ""
    for step in 0..<4_000 {
      let id = ids[Int.random(in: 0..<ids.count, using: &generator)]
      let title = "edit \(step) " + String(repeating: "x", count: Int.random(in: 0..<12, using: &generator))
      let use = ["use \(id)", "use \(id)\r", "  use \(id)"][Int.random(in: 0..<3, using: &generator)]
      script += use + "\n" + "set title \"\(title)\"\n"
      titles[id] = title
      switch Int.random(in: 0..<40, using: &generator) {
      case 0: script += "\n"
      case 1:
        // The `use` fails and the record before stays selected.
        script += "use nosuch\nset title \"never\"\n"
        titles[id] = "never"
      case 2: script += "show\n"
      default: break
      }
    }
    script += "save"
    #expect(script.utf8.count > 2 << 16)
    let folder = try TempFolder()
    let file = "[\n  " + records.joined(separator: ",\n  ") + "\n]\n"
    _ = try folder.write("piped.json", file)
    _ = try folder.write("sourced.json", file)
    _ = try folder.write("script.rsh", script)
    let piped = try folder.recsh(["-k", "piped.json"], stdin: script)
    let sourced = try folder.recsh(["-k", "-s", "script.rsh", "sourced.json"])
    #expect(piped.status == 1)
    #expect(piped.status == sourced.status)
    #expect(piped.stdout == sourced.stdout)
    #expect(!piped.stdout.isEmpty)
    #expect(piped.stderr.replacingOccurrences(of: "<stdin>:", with: "script.rsh:") == sourced.stderr)
    #expect(piped.stderr.contains("nosuch"))
    let saved = try folder.read("piped.json")
    #expect(saved == (try folder.read("sourced.json")))
    let expected =
      "[\n  " + ids.map { #"{"id": "\#($0)", "title": "\#(titles[$0] ?? "")"}"# }.joined(separator: ",\n  ")
      + "\n]\n"
    #expect(saved == expected)
  }

  @Test func keepGoingRunsEverythingAndStillExitsOne() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(
      ["-k", "t.json"], stdin: "use a1\nset priority 9\nset title changed\nsave\n")
    #expect(result.status == 1)
    #expect(result.stderr == "<stdin>:2: error: field 'priority': expected an integer 0–5, found 9\n")
    #expect(try folder.read("t.json").contains("\"title\": \"changed\""))
  }

  @Test func commandLineCommandsAreNumberedForDiagnostics() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["t.json", "-c", "use a1", "-c", "set done maybe"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("<command>:2: error: field 'done': expected true or false, found maybe"))
  }

  @Test func aScriptFileNamesItselfInDiagnostics() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try folder.write("plan.rsh", "# plan\nuse c3\n\ndelete zz\n")
    let result = try folder.recsh(["-s", "plan.rsh", "t.json"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("plan.rsh:4: error: no record with id or id prefix 'zz'\n"))
  }

  @Test func nestedSourceErrorsShowTheChainOfLocations() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try folder.write("inner.rsh", "use a1\nset priority high\n")
    try folder.write("outer.rsh", "list\nsource inner.rsh\n")
    let result = try folder.recsh(["-s", "outer.rsh", "t.json"])
    #expect(result.status == 1)
    #expect(
      result.stderr == """
        inner.rsh:2: error: field 'priority': expected an integer 0–5, found high
        outer.rsh:2: note: in a file sourced from here

        """)
  }

  @Test func aGroupOpenedInASourcedFileMustBeClosedThere() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try folder.write("inner.rsh", "begin work\nuse a1\nset title x\n")
    let result = try folder.recsh(["t.json"], stdin: "source inner.rsh\nhistory\n")
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "group 'work' (opened at inner.rsh:1) not closed in \"inner.rsh\"; closed and kept"))
  }

  @Test func aGroupLeftOpenAtTheEndIsKeptWithAWarningAndExitsOne() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["t.json"], stdin: "begin review\nuse a1\nset title kept\nsave\n")
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "<stdin>: warning: group 'review' (opened at <stdin>:1) was still open at the end of input; "
          + "closed and kept as one undo step"))
    #expect(try folder.read("t.json").contains("\"title\": \"kept\""))
  }

  @Test func unsavedChangesAtTheEndGiveAWarningAndDoNotChangeTheStatus() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["t.json"], stdin: "use a1\nset title x\nset done true\n")
    #expect(result.status == 0)
    #expect(result.stderr == "warning: 2 unsaved changes to \"t.json\" not saved\n")
    let quit = try folder.recsh(["t.json"], stdin: "use a1\nset title x\nquit\nset title y\n")
    #expect(quit.status == 0)
    // The first run's two unsaved steps stay in the history beyond the saved state.
    #expect(
      quit.stderr
        == "t.json: warning: the last session left 2 unsaved steps; 'redo' brings them back\n"
        + "warning: 1 unsaved change to \"t.json\" not saved\n")
  }

  @Test func exitStatusTwoForBadUsage() throws {
    let result = try RecshBinary.run(["--undo-limit", "lots"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "recsh: --undo-limit needs a number of steps (0: no limit), not \"lots\"\nTry 'recsh --help'.\n")
    #expect(try RecshBinary.run(["--frobnicate"]).status == 2)
    #expect(try RecshBinary.run(["a.json", "b.json"]).status == 2)
    #expect(try RecshBinary.run(["--kind", "robot"]).status == 2)
  }

  @Test func aMissingScriptIsBadUsageAndTouchesNothing() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["-s", "nope.rsh", "t.json"])
    #expect(result.status == 2)
    #expect(result.stderr == "recsh: error: cannot read the script: cannot read \"nope.rsh\": no such file\n")
    #expect(!folder.exists(folder.logPath("t.json")))
  }

  @Test func exitStatusThreeForAnInvalidDataFileWhichStaysUntouched() throws {
    let folder = try TempFolder()
    let text = "[\n  {\"id\": \"a\"},\n  {\"id\": \"b\", \"priority\": \"high\"}\n]\n"
    try folder.write("bad.json", text)
    let result = try folder.recsh(["--kind", "task", "bad.json", "-c", "list"])
    #expect(result.status == 3)
    #expect(
      result.stderr
        == "bad.json:3:3: error: record 2 (id \"b\"): field 'priority': expected an integer 0–5, found \"high\"\n"
    )
    #expect(result.stdout.isEmpty, "the shell does not start on partial data")
    #expect(try folder.read("bad.json") == text)
    try folder.write("syntax.json", "[{\"id\": \"a\",}]")
    #expect(
      try folder.recsh(["syntax.json", "-c", "list"]).stderr
        == "syntax.json:1:12: error: trailing comma before '}'\n")
  }

  @Test func duplicateIdsRefuseTheFile() throws {
    let folder = try TempFolder()
    try folder.write("dup.json", "[{\"id\": \"a\"}, {\"id\": \"a\"}]")
    let result = try folder.recsh(["dup.json", "-c", "list"])
    #expect(result.status == 3)
    #expect(result.stderr == "dup.json:1:15: error: records 1 and 2 have the same id \"a\"\n")
  }

  @Test func aFileOfAnotherKindWarnsButOpens() throws {
    let folder = try TempFolder()
    try folder.write("c.json", "[{\"id\": \"c1\", \"name\": \"Ann\"}]")
    let result = try folder.recsh(["--kind", "task", "c.json", "-c", "list"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("c.json: warning: the record has a task field"))
  }

  @Test func aMissingFileStartsEmptyAndIsCreatedOnSave() throws {
    let folder = try TempFolder()
    let result = try folder.recsh(["new.json", "-c", "new title first; save"])
    #expect(result.status == 0)
    let text = try folder.read("new.json")
    #expect(text.hasPrefix("[\n  {\n    \"id\": \""))
    #expect(text.hasSuffix("\",\n    \"title\": \"first\"\n  }\n]\n"))
  }

  @Test func anUnnamedDocumentNeedsAFileNameToSave() throws {
    let folder = try TempFolder()
    let result = try folder.recsh(["-c", "new; save"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("<command>:1: error: no file name; 'save FILE' names the file\n"))
    let named = try folder.recsh(["-c", "new; save out.json"])
    #expect(named.status == 0)
    #expect(folder.exists("out.json"))
  }

  @Test func savingRefusesAFileChangedOnDiskUnlessForced() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    // The script waits on its input (after its first edit) while another program rewrites
    // the file.
    let result = try RecshBinary.runChangingFile(
      ["t.json"], directory: folder.url, firstInput: "use a1\nset title mine\n",
      change: folder.path("t.json"),
      rest: "save\n")
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("error: \"t.json\" changed on disk since it was read; 'save!' overwrites it"))
    let forced = try RecshBinary.runChangingFile(
      ["t.json"], directory: folder.url, firstInput: "use a1\nset title mine\n",
      change: folder.path("t.json"),
      rest: "save!\n")
    #expect(forced.status == 0)
    #expect(try folder.read("t.json").contains("\"title\": \"mine\""))
  }

  /// A session's first edit after another program (or another recsh) changed the file is
  /// refused: its history would be made from a state that is no longer the file's. The
  /// script ends with exit 3, the file as the other program left it; `open!` reloads.
  @Test func theFirstEditAfterTheFileChangedElsewhereIsRefused() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try RecshBinary.runChangingFile(
      ["t.json"], directory: folder.url, firstInput: "use a1\n", change: folder.path("t.json"),
      rest: "set title mine\nsave!\n")
    #expect(result.status == 3)
    #expect(
      result.stderr.hasSuffix(
        "<stdin>:3: error: \"t.json\" or its history was changed by another session since this one opened it; "
          + "'open! t.json' reloads it\n"), "\(result.stderr)")
    let changed = try folder.read("t.json")
    #expect(!changed.contains("mine"))
    #expect(folder.stateEntries().isEmpty, "nothing was written for the refused edit")
    let reloaded = try RecshBinary.runChangingFile(
      ["t.json"], directory: folder.url, firstInput: "use a1\n", change: folder.path("t.json"),
      rest: "open! t.json\nuse a1\nset title mine\nsave\n")
    #expect(reloaded.status == 0, "\(reloaded.stderr)")
    #expect(try folder.read("t.json").contains("\"title\": \"mine\""))
  }

  @Test func saveToAnotherExistingFileRefusesUnlessForced() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try folder.write("other.json", "[]\n")
    let result = try folder.recsh(["t.json", "-c", "save other.json"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("\"other.json\" already exists; 'save! other.json' overwrites it"))
    #expect(try folder.read("other.json") == "[]\n")
    #expect(try folder.recsh(["t.json", "-c", "save! other.json"]).status == 0)
    #expect(try folder.read("other.json") == (try folder.read("t.json")))
  }

  @Test func aPipeClosedEarlyEndsQuietly() throws {
    let folder = try TempFolder()
    var records: [String] = []
    for index in 0..<5000 { records.append("{\"id\": \"r\(index)\", \"title\": \"task \(index)\"}") }
    try folder.write("big.json", "[" + records.joined(separator: ",\n") + "]")
    let before = try folder.read("big.json")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "'\(RecshBinary.url.path)' big.json -c 'list; list; list' | head -1"]
    process.currentDirectoryURL = folder.url
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let full = try folder.recsh(["big.json", "-c", "list"]).stdout
    #expect(out == String(full.prefix { $0 != "\n" }) + "\n")
    #expect(err.isEmpty)
    #expect(try folder.read("big.json") == before)
  }

  @Test func eachAnswerIsFlushedBeforeTheShellWaitsForInput() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let session = try InteractivePipe(arguments: ["t.json"], directory: folder.url)
    session.send("use b2; show\n")
    #expect(try session.readUntil("tags      [work]\n").contains("title     two"))
    session.send("list\n")
    #expect(try session.readUntil("(3 records)\n").contains("@2"))
    session.close()
  }

  @Test func echoPrintsEachCommandBeforeItsOutput() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["-e", "t.json"], stdin: "use c3\nshow\n")
    #expect(result.stdout.hasPrefix("use c3\nshow\nid        c3cccccc\n"))
  }
}

extension ScriptModeTests {
  /// A `list` filter whose value does not fit its field is a filter error, not an edit's.
  @Test func aBadFilterValueIsReportedAsTheFilters() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["t.json", "-c", "list priority=high"])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "<command>:1: error: in the filter priority=high: field 'priority': expected an integer 0–5, found high\n"
    )
    #expect(result.stdout.isEmpty)
  }
}
