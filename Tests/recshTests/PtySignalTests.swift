import Foundation
import Glibc
import Testing

/// Signals at a terminal: a hang-up or SIGTERM at the prompt or during a long save, and
/// Ctrl-C during a long save. The terminal always gets its own mode back, no save is left
/// half done, and every unsaved edit is in the journal for the next open.
@Suite struct PtySignalTests {
  /// A task file of `count` records, about 85 bytes each.
  static func bigFile(_ count: Int, in folder: TempFolder) throws {
    var text = "[\n"
    text.reserveCapacity(count * 90)
    for number in 1...count {
      text += "  {\n    \"id\": \"r\(number)\",\n    \"title\": \"Task number \(number)\",\n"
      text += "    \"done\": false,\n    \"priority\": 3\n  }\(number == count ? "" : ",")\n"
    }
    text += "]\n"
    try folder.write("t.json", text)
  }

  static func leftoverTemporaryFiles(in folder: TempFolder) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }
  }

  /// recsh on 100k records at a terminal, with `title` of record `id` changed, in the
  /// middle of a `save` (about 200 ms into it).
  static func savingALongFile(editing id: String) throws -> (TempFolder, PseudoTerminal) {
    let folder = try TempFolder()
    try bigFile(100_000, in: folder)
    let terminal = try PtyTests.start(in: folder)
    try terminal.waitForPrompt(PtyTests.prompt)
    try PtyTests.run("use \(id)", on: terminal, then: "t.json \(id)> ")
    try PtyTests.run("set title changed", on: terminal, then: "*> ")
    // Every record changed: the save writes each anew (one changed record is saved as a
    // copy of the file's other bytes, too quickly to be interrupted).
    try PtyTests.run("set done true where done=false", on: terminal, then: "*> ")
    terminal.send("save\r")
    try terminal.expect("save\r\n")
    // libedit echoes the line before it gives the terminal its own mode back: a key sent
    // at once can still reach libedit's raw reads. The save of 100k records takes longer.
    usleep(200_000)
    return (folder, terminal)
  }

  @Test(arguments: [SIGTERM, SIGHUP])
  func aSignalAtThePromptRestoresTheTerminalAndKeepsTheEdits(_ signal: Int32) throws {
    let (folder, terminal) = try PtyTests.started()
    let before = try folder.read("t.json")
    try PtyTests.run("use @1", on: terminal, then: PtyTests.firstSelected)
    try PtyTests.run("set title first", on: terminal, then: "*> ")
    try PtyTests.run("begin \"open group\"", on: terminal, then: "(open group)> ")
    try PtyTests.run("set priority 5", on: terminal, then: "(open group)> ")
    terminal.signal(signal)
    #expect(try terminal.waitForExit() == 128 + signal)
    #expect(terminal.isCooked)
    #expect(try folder.read("t.json") == before)
    #expect(folder.exists(folder.logPath("t.json")))
    // The next open is told about the journal, and recovers every edit.
    let refused = try folder.recsh(["t.json", "-c", "show a1"])
    #expect(refused.status == 3)
    #expect(refused.stderr.contains("--recover"))
    let recovered = try folder.recsh(["t.json", "--recover", "-c", "show a1; undo; show a1; save"])
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(recovered.stdout.contains("title     first\n"))
    #expect(recovered.stdout.contains("priority  5\n"))
    // The group was closed and kept as one step: one undo takes back the group only.
    let shown = recovered.stdout.components(separatedBy: "id        a1aaaaaa")
    #expect(shown.count == 3)
    #expect(shown[1].contains("priority  5"))
    #expect(shown[2].contains("priority  1"))
    #expect(shown[2].contains("title     first"))
  }

  @Test(arguments: [SIGTERM, SIGHUP])
  func aSignalDuringALongSaveLetsTheSaveFinishThenEnds(_ signal: Int32) throws {
    let (folder, terminal) = try Self.savingALongFile(editing: "r1")
    terminal.signal(signal)
    #expect(try terminal.waitForExit(timeout: 60) == 128 + signal)
    // It came during the save: no prompt was shown after it.
    #expect(!terminal.unmatched.contains("> "), "\(terminal.unmatched.debugDescription)")
    #expect(terminal.isCooked)
    #expect(try Self.leftoverTemporaryFiles(in: folder).isEmpty)
    // The save finished: the file holds the edit and opens without a recovery question.
    let next = try folder.recsh(["t.json", "-c", "show r1"])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(next.stdout.contains("title     changed\n"))
  }

  @Test func ctrlCDuringALongSaveIsIgnoredAndTheShellGoesOn() throws {
    let (folder, terminal) = try Self.savingALongFile(editing: "r2")
    terminal.send("\u{03}")
    let shown = try terminal.expect("t.json r2> ")
    // It came during the save (the terminal, in its own mode then, echoed it before the
    // save's confirmation), and the save went on to the end.
    let echo = try #require(shown.range(of: "^C"), "\(shown.debugDescription)")
    let confirmation = try #require(shown.range(of: "Saved 100000 records to t.json"))
    #expect(echo.upperBound <= confirmation.lowerBound)
    try terminal.waitForRawMode(after: "t.json r2> ")
    try PtyTests.run("set priority 1", on: terminal, then: "*> ")
    #expect(try Self.leftoverTemporaryFiles(in: folder).isEmpty)
    let saved = try folder.read("t.json")
    #expect(saved.hasSuffix("}\n]\n"))
    #expect(saved.contains("\"title\": \"changed\""))
    terminal.send("quit!\r")
    #expect(try terminal.waitForExit(timeout: 60) == 0)
  }
}
