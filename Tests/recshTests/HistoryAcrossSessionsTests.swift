import Foundation
import Glibc
import RecordShell
import Testing

/// The undo history kept beside the file, as a user meets it: quit, reopen and undo;
/// a change made by another program as one step; branches, `goto`, `earlier`/`later`;
/// `history clear`; keeping it off; and logs that are not this file's.
///
/// Times come from `RECSH_CLOCK` (a fixed clock for tests) in UTC, so dates and clock
/// times print exactly.
@Suite struct HistoryAcrossSessionsTests {
  static let yesterday = 1_796_000_000  // 2026-11-30 00:53:20 UTC
  static let today = 1_796_090_000  // 2026-12-01 01:53:20 UTC

  static func recsh(_ folder: TempFolder, at time: Int, _ arguments: [String]) throws -> RecshBinary.Result {
    let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
    return try RecshBinary.runShell(
      "exec \"$RECSH\" " + quoted.joined(separator: " "),
      environment: ["RECSH_CLOCK": String(time), "TZ": "UTC"],
      directory: folder.url)
  }

  @Test func yesterdaysEditIsUndoneInANewSession() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let original = try folder.read("t.json")
    let first = try Self.recsh(
      folder, at: Self.yesterday, ["t.json", "-c", "use a1; set title yesterday; save"])
    #expect(first.status == 0)
    let second = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "history; undo; save"])
    #expect(second.stderr == "")
    #expect(
      second.stdout == """
         > 1  Set title  2026-11-30 00:53:20  <- now [saved]
        Undid: Set title

        """)
    #expect(try folder.read("t.json") == original)
    // And redo brings it back in a third session (the undo was saved, the step stays).
    let third = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "redo; show a1"])
    #expect(third.stdout.hasPrefix("Redid: Set title\n"))
    #expect(third.stdout.contains("title     yesterday\n"))
  }

  @Test func unsavedStepsAtANormalExitComeBackWithRedo() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let original = try folder.read("t.json")
    let first = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "use a1; set title a; set title b"])
    #expect(first.stderr == "warning: 2 unsaved changes to \"t.json\" not saved\n")
    #expect(try folder.read("t.json") == original, "the file stays as saved")
    let second = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "redo 2; show a1"])
    #expect(
      second.stderr
        == "t.json: warning: the last session left 2 unsaved steps; 'redo' brings them back\n"
        + "warning: 2 unsaved changes to \"t.json\" not saved\n")
    #expect(second.stdout.contains("title     b\n"))
  }

  /// The file edited by another program: one step, and undo gives back recsh's records,
  /// in the layout the file has now (the other program's: one line).
  @Test func anOutsideChangeIsOneStepAndUndoGivesBackWhatRecshSaved() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    _ = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "use b2; set title mine; save"])
    let saved = try folder.read("t.json")
    try folder.write("t.json", #"[{"id": "a1aaaaaa", "title": "one"}, {"id": "z9", "title": "theirs"}]"#)
    let result = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "history; undo; save"])
    #expect(
      result.stderr
        == "t.json: warning: the file was changed outside recsh since it saved it: recorded as step 2, "
        + "\"Changed outside recsh\" (5 record changes); 'undo' gives back what recsh saved\n")
    #expect(
      result.stdout == """
           1  Set title              01:53:20
         > 2  Changed outside recsh  01:53:20  <- now [saved]
        Undid: Changed outside recsh

        """)
    let written = try folder.read("t.json")
    #expect(!written.contains("\n  "), "the one-line layout kept: \(written)")
    try folder.write("saved.json", saved)
    let compared = try folder.recsh(["diff", "saved.json", "t.json"])
    #expect(compared.status == 0, "the records recsh saved: \(compared.stdout)")
  }

  @Test func aReformattedFileIsNoStep() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    _ = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "use c3; set title three!; save"])
    let records = try JSONSerialization.jsonObject(with: Data(try folder.read("t.json").utf8))
    try folder.write(
      "t.json", String(decoding: try JSONSerialization.data(withJSONObject: records), as: UTF8.self))
    let result = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "history"])
    #expect(
      result.stderr
        == "t.json: warning: the file was reformatted outside recsh (every record is the same); "
        + "the next save writes recsh's formatting\n")
    #expect(
      result.stdout
        == "   1  Set title  01:53:20  <- now [saved]\n".replacingOccurrences(of: "   1", with: " > 1"))
  }

  @Test func branchesAreKeptAndGotoReachesThem() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try Self.recsh(
      folder, at: Self.today,
      [
        "t.json", "-c",
        "use a1; set title first; undo; set title second; history all; goto 1; show a1; history",
      ])
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(
        """
        Undid: Set title
              (start)  [saved]
           1  Set title  01:53:20
         > 2  Set title  01:53:20  <- now (from the start)
        At step 1 (from step 2): 1 undone, 1 redone

        """))
    #expect(result.stdout.contains("title     first\n"))
    #expect(
      result.stdout.hasSuffix(
        """
              (start)  [saved]
         > 1  Set title  01:53:20  <- now

        """))
  }

  @Test func earlierAndLaterMoveByTimeAndStopAtTheEnds() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    _ = try Self.recsh(folder, at: Self.yesterday, ["t.json", "-c", "use a1; set title old; save"])
    _ = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "use a1; set title new; save"])
    let result = try Self.recsh(
      folder, at: Self.today,
      ["t.json", "-c", "earlier 1h; show a1; later 1h; later 1h; earlier 99999d; later 3d"])
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix("At step 1 (from step 2): 1 undone, 0 redone\n"), "an hour before today's step")
    #expect(result.stdout.contains("title     old\n"))
    #expect(
      result.stdout.hasSuffix(
        """
        At step 1 (from step 1): 0 undone, 0 redone
        """) == false)
    #expect(
      result.stdout.contains(
        """
        Already at step 1
        Stopped at the oldest state kept
        At the start (from step 1): 1 undone, 0 redone
        Stopped at the newest state
        At step 2 (from the start): 0 undone, 2 redone
        """))
    let saves = try Self.recsh(
      folder, at: Self.today, ["t.json", "-c", "earlier 1save; show a1; later 1save"])
    #expect(saves.stdout.hasPrefix("At step 1 (from step 2): 1 undone, 0 redone\n"))
    #expect(saves.stdout.hasSuffix("At step 2 (from step 1): 0 undone, 1 redone\n"))
  }

  @Test func gotoRefusesStepsItDoesNotHave() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try Self.recsh(
      folder, at: Self.today,
      [
        "--undo-limit", "1", "-k", "t.json", "-c",
        "use a1; set title a; set title b; set title c; goto 99999; goto -1; goto 1",
      ])
    #expect(result.status == 1)
    #expect(
      result.stderr == """
        <command>:1: error: no step 99999: steps are numbered 1 to 3, 0 is the start
        <command>:1: error: 'goto' expects a step number (0 is the start), found '-1'
        <command>:1: error: step 1 is no longer kept (dropped by the undo limit); 'history all' lists the kept ones
        warning: 1 unsaved change to "t.json" not saved

        """)
  }

  @Test func historyClearDropsItForGood() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let dirty = try Self.recsh(
      folder, at: Self.today, ["-k", "t.json", "-c", "use a1; set title x; history clear"])
    #expect(
      dirty.stderr.hasPrefix(
        "<command>:1: error: 1 unsaved change; 'save' (or undo them) first: the history starts again from the saved file\n"
      ))
    // The unsaved step stayed, beyond the saved state: a clear drops it too.
    let cleared = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "history; history clear; history"])
    #expect(cleared.status == 0)
    #expect(
      cleared.stdout == """
              (start)  [saved]
           1  Set title  01:53:20  (can redo)
           (everything above is undone)
        no undo steps yet

        """)
    let next = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "history"])
    #expect(next.stdout == "no undo steps yet\n")
  }

  @Test func historyClearAsksAtThePrompt() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    _ = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "use a1; set title x; save"])
    let terminal = try PtyTests.start(in: folder)
    try terminal.expect(PtyTests.prompt)
    terminal.send("history clear\r")
    try terminal.expect("this drops 1 step of history for good; 'history clear' again to do it")
    terminal.send("history clear\r")
    terminal.send("history\r")
    try terminal.expect("no undo steps yet")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func keepingTheHistoryCanBeTurnedOff() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let off = try Self.recsh(
      folder, at: Self.today, ["--no-undo-file", "t.json", "-c", "use a1; set title x; save"])
    #expect(off.status == 0)
    #expect(!folder.exists(folder.logPath("t.json")))
    let next = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "history"])
    #expect(next.stdout == "no undo steps yet\n")
    // A history kept again from here on, then turned off by the environment.
    let kept = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "use a1; set title w; save"])
    #expect(kept.status == 0)
    #expect(folder.exists(folder.logPath("t.json")))
    let environment = try RecshBinary.runShell(
      "exec \"$RECSH\" t.json -c 'use a1; set title y; save'", environment: ["RECSH_UNDO_FILE": "off"],
      directory: folder.url)
    #expect(environment.status == 0)
    #expect(
      environment.stderr.contains("(keeping the undo history is off); the first edit sets it aside as"),
      "the history kept before is set aside: \(environment.stderr)")
    #expect(!folder.exists(folder.logPath("t.json")))
    #expect(folder.stateEntries().filter { $0.hasSuffix(".bak") }.count == 1)
  }

  @Test func theKindTheFileWasEditedWithIsRemembered() throws {
    let folder = try TempFolder()
    try folder.write("b.json", #"[{"id": "x1", "title": "Dune", "done": false}]"#)
    let first = try Self.recsh(
      folder, at: Self.today, ["--kind", "contact", "b.json", "-c", "use x1; set name Frank; save"])
    #expect(first.status == 0, "\(first.stderr)")
    let second = try Self.recsh(folder, at: Self.today, ["b.json", "-c", "fields; undo"])
    #expect(second.stdout.hasPrefix("kind contact, remembered from the file's history\n"))
    #expect(second.stdout.contains("Undid: Set name\n"))
  }

  @Test func aLogOfAnotherKindIsSetAsideAndTheSessionGoesOn() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    _ = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "use a1; set title x; save"])
    let state = folder.stateEntries()
    let other = try Self.recsh(folder, at: Self.today, ["--kind", "contact", "t.json", "-c", "history"])
    #expect(other.status == 0)
    #expect(
      other.stderr.hasPrefix(
        "t.json: warning: the history was not applied (the journal was written for records of kind task); "
          + "the first edit sets it aside as \"\(folder.statePath)/t.json-"), "\(other.stderr)")
    #expect(other.stdout.hasSuffix("no undo steps yet\n"))
    #expect(folder.stateEntries() == state, "a session that changes nothing writes nothing")
    let edit = try Self.recsh(
      folder, at: Self.today, ["--kind", "contact", "t.json", "-c", "use a1; set name Ann"])
    #expect(edit.status == 0, "\(edit.stderr)")
    #expect(folder.stateEntries().filter { $0.hasSuffix(".bak") }.count == 1, "set aside at the first edit")
  }

  @Test func aDirectoryWhereTheLogGoesIsSetAside() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try FileManager.default.createDirectory(
      atPath: folder.logPath("t.json"), withIntermediateDirectories: true)
    let result = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "use a1; set title x; save"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("is a directory, not a history log; the first edit sets it aside as"))
    let next = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "undo; show a1"])
    #expect(next.stdout.contains("title     one\n"), "the history works after")
  }

  /// A symbolic link or a named pipe where the log goes is never followed or read (a
  /// pipe would block the open): it is set aside and the session goes on.
  @Test(arguments: ["symlink", "fifo"])
  func aLinkOrAPipeWhereTheLogGoesIsSetAside(_ what: String) throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let log = folder.logPath("t.json")
    try FileManager.default.createDirectory(atPath: folder.statePath, withIntermediateDirectories: true)
    if what == "symlink" {
      try folder.write("elsewhere", "not a log")
      try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: folder.path("elsewhere"))
    } else {
      #expect(mkfifo(log, 0o600) == 0)
    }
    let result = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "use a1; set title x; save"])
    #expect(result.status == 0)
    let kind = what == "symlink" ? "a symbolic link" : "a named pipe"
    #expect(result.stderr.contains("is \(kind), not a history log; the first edit sets it aside as"))
    if what == "symlink" {
      #expect(try folder.read("elsewhere") == "not a log", "the link's target untouched")
    }
  }

  @Test func aLogFromANewerRecshIsNotApplied() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let header = Array(#"{"header": {"format": 9, "base": null, "pid": 1, "time": 0, "kind": "task"}}"#.utf8)
    let bytes = JournalFraming.magic + JournalFraming.record(sequence: 0, payload: header)
    try FileManager.default.createDirectory(atPath: folder.statePath, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: folder.logPath("t.json")))
    let refused = try Self.recsh(folder, at: Self.today, ["t.json", "-c", "list"])
    #expect(refused.status == 3)
    #expect(
      refused.stderr.contains(
        "the journal is in format 9, written by a newer recsh (this one reads up to 4)"))
    let discarded = try Self.recsh(folder, at: Self.today, ["--discard-journal", "t.json", "-c", "history"])
    #expect(discarded.status == 0)
    #expect(discarded.stderr.contains("set the history aside as"))
  }
}
