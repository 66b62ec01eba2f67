import Foundation
import Glibc
import Testing

@testable import recsh

/// The progress bar of a long open or save at the prompt: shown once the work takes half
/// a second, erased when it ends; not for a quick one, not with `--quiet`.
@Suite struct PtyProgressTests {
  /// The text up to the first prompt: what the start-up's open showed.
  static func startUp(_ arguments: [String], in folder: TempFolder, prompt: String) throws -> (
    PseudoTerminal, String
  ) {
    let terminal = try PtyTests.start(arguments, in: folder)
    let shown = try terminal.expect(prompt, timeout: 120)
    try terminal.waitForRawMode(after: prompt)
    return (terminal, shown)
  }

  @Test func aLongOpenAndSaveShowABarAndEraseIt() throws {
    let folder = try TempFolder()
    // About 25 MB: over half a second to open in any build made for tests.
    try PtySignalTests.bigFile(300_000, in: folder)
    let (terminal, shown) = try Self.startUp(["t.json"], in: folder, prompt: PtyTests.prompt)
    let bar = try #require(shown.range(of: "\rOpening t.json  ["), "\(shown.suffix(300).debugDescription)")
    #expect(shown[bar.upperBound...].contains("% "))
    #expect(shown[bar.upperBound...].contains(" MB of "))
    #expect(shown[bar.upperBound...].contains(" s left"))
    // Erased before anything else is shown: the line saying which kind the file opened
    // as, then the prompt, start on a clean line.
    #expect(
      shown.hasSuffix(
        "\u{1B}[K\r\u{1B}[Kkind task: every record fits it, and they hold 3 of its 6 fields\r\n"
          + PtyTests.prompt),
      "\(shown.suffix(200).debugDescription)")
    try PtyTests.run("use r1", on: terminal, then: "t.json r1> ")
    try PtyTests.run("set title changed", on: terminal, then: "*> ")
    // Every record changed, so that the save writes each anew and takes its time.
    try PtyTests.run("set done true where done=false", on: terminal, then: "*> ")
    terminal.send("save\r")
    let saving = try terminal.expect("t.json r1> ", timeout: 120)
    #expect(saving.contains("\rSaving t.json  ["), "\(saving.suffix(300).debugDescription)")
    #expect(saving.hasSuffix("\r\u{1B}[K" + "Saved 300000 records to t.json\r\nt.json r1> "))
    try terminal.waitForRawMode(after: "t.json r1> ")
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func aQuickOpenShowsNoBar() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let (terminal, shown) = try Self.startUp(["t.json"], in: folder, prompt: PtyTests.prompt)
    #expect(!shown.contains("Opening"))
    #expect(!shown.contains("\u{1B}[K"))
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func quietTurnsTheBarOff() throws {
    let folder = try TempFolder()
    try PtySignalTests.bigFile(300_000, in: folder)
    let (terminal, shown) = try Self.startUp(["-q", "t.json"], in: folder, prompt: PtyTests.prompt)
    #expect(!shown.contains("Opening"))
    terminal.send("quit\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test func theBarFitsTheWidthItIsGiven() {
    for width in [20, 40, 80, 120, 200] {
      let line = ProgressDisplay.line(
        .opening, path: "some/longer/path/to/records.json", done: 157_300_000, total: 308_000_000,
        seconds: 1.8,
        width: width)
      #expect(line.count <= width - 1, "\(width): \(line)")
    }
    let line = ProgressDisplay.line(
      .saving, path: "t.json", done: 157_300_000, total: 308_000_000, seconds: 2, width: 100)
    #expect(
      line
        == "Saving t.json  [###############               ]  51%  157.3 MB of 308.0 MB  78.7 MB/s  2 s left")
    // A save's estimate that falls short stands at 99 % until the end.
    #expect(
      ProgressDisplay.line(.saving, path: "t.json", done: 2_000, total: 1_000, seconds: 1, width: 100)
        .contains(" 99%  2 KB of 2 KB"))
  }
}
