import Foundation
import Glibc
import Testing

@testable import RecordKit
@testable import RecordShell

/// The journal against real processes: `kill -9` at random moments loses no
/// acknowledged step, and a second recsh on the same file is kept out.
@Suite struct JournalProcessTests {
  /// A record as the soak compares it: ids of new records are random, so they are left out.
  struct Fields: Equatable {
    var title: String?
    var priority: Int?
    var tags: [String]?
  }

  static func fields(_ records: [TaskRecord]) -> [Fields] {
    records.map { Fields(title: $0.title, priority: $0.priority, tags: $0.tags) }
  }

  static func randomLine(using g: inout SystemRandomNumberGenerator) -> String {
    let n = Int.random(in: 1...3, using: &g)
    switch Int.random(in: 0..<100, using: &g) {
    case 0..<15: return "use @\(n)"
    case 15..<40: return "set title t\(Int.random(in: 0..<9, using: &g))"
    case 40..<50: return "set priority \(Int.random(in: 0...5, using: &g))"
    case 50..<56: return "add tags x\(n)"
    case 56..<62: return "new title n\(n)"
    case 62..<65: return "delete @\(n)"
    case 65..<72: return "begin g\(n)"
    case 72..<78: return "end"
    case 78..<80: return "rollback"
    case 80..<92: return "undo"
    default: return "redo"
    }
  }

  static let soakRuns = ProcessInfo.processInfo.environment["RECSH_SOAK_RUNS"].flatMap { Int($0) } ?? 100

  /// Sessions one after another on one file: in each, a child recsh gets random edits
  /// through a pipe; after each acknowledged one (its `history` answer arrived) more may
  /// follow unanswered; then it is killed, and `--recover` must give back at least every
  /// acknowledged step (the recovered state is saved; the next session starts there).
  /// At the end the history spans every session: `goto 0` in a new session gives back
  /// the file as it was before the first, so no step was lost or applied twice.
  @Test func killNineLosesNoAcknowledgedStepAcrossSessions() throws {
    var generator = SystemRandomNumberGenerator()
    var totalSteps = 0
    var totalSessions = 0
    var lost = 0
    for run in 0..<Self.soakRuns {
      let folder = try TempFolder()
      try folder.threeTasks()
      let original = Self.fields(
        try RecordFile<TaskRecord>.decode(Array(try folder.read("t.json").utf8)).document.records)
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        // The model opens a copy of the file and its history log: undo reaches earlier sessions.
        let modelFolder = try TempFolder()
        try modelFolder.write("t.json", try folder.read("t.json"))
        if folder.exists(folder.logPath("t.json")) {
          try FileManager.default.createDirectory(
            atPath: modelFolder.statePath, withIntermediateDirectories: true)
          try FileManager.default.copyItem(
            atPath: folder.logPath("t.json"), toPath: modelFolder.logPath("t.json"))
        }
        var model = try Session<TaskRecord>.open(
          path: modelFolder.path("t.json"), stateFolder: StateFolder(path: modelFolder.statePath)
        ).session
        let child = try InteractivePipe(arguments: ["-k", "t.json"], directory: folder.url)
        var states = [Self.fields(model.document.records)]
        var acknowledged = 0
        let length = Int.random(in: 1...25, using: &generator)
        let unanswered = Int.random(in: 0...4, using: &generator)
        for index in 0..<length {
          let line = Self.randomLine(using: &generator)
          _ = try? model.run(line: line)
          states.append(Self.fields(model.document.records))
          if index < length - unanswered {
            child.send(line + "\nhistory\n")
            _ = try child.readUntil("\n", seconds: 20)
            child.clearReceived()
            acknowledged = states.count - 1
          } else {
            child.send(line + "\n")
          }
        }
        usleep(UInt32.random(in: 0...3000, using: &generator))
        kill(child.process.processIdentifier, SIGKILL)
        child.process.waitUntilExit()
        model.close()
        totalSteps += length
        totalSessions += 1
        let recovered = try folder.recsh(["--recover", "t.json", "-c", "save"])
        guard recovered.status == 0 else {
          Issue.record("run \(run): recovery failed: \(recovered.stderr)")
          break
        }
        let records = try RecordFile<TaskRecord>.decode(Array(try folder.read("t.json").utf8)).document
          .records
        if !states[acknowledged...].contains(Self.fields(records)) {
          lost += 1
          Issue.record("run \(run): recovered state is not one from step \(acknowledged) on")
        }
      }
      let undone = try folder.recsh(["t.json", "-c", "goto 0; save"])
      let start = try RecordFile<TaskRecord>.decode(Array(try folder.read("t.json").utf8)).document.records
      if undone.status != 0 || Self.fields(start) != original {
        lost += 1
        Issue.record("run \(run): goto 0 across the sessions did not give the start back: \(undone.stderr)")
      }
    }
    // The figures for the closing note: `swift test --filter killNine` prints them.
    print(
      "kill -9 soak: \(Self.soakRuns) runs, \(totalSessions) sessions, \(totalSteps) steps, "
        + "\(lost) runs lost an acknowledged step or did not undo back to the start")
    #expect(lost == 0)
  }

  @Test func aSecondRecshOnTheSameFileIsToldWhoHoldsIt() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let first = try InteractivePipe(arguments: ["t.json"], directory: folder.url)
    first.send("list\n")
    _ = try first.readUntil("records)")
    // Reading needs no lock: a second recsh lists while the first one holds the file.
    #expect(try folder.recsh(["t.json", "-c", "list"]).status == 0)
    first.send("use a1\nset title first\nshow\n")
    _ = try first.readUntil("title     first")
    let reader = try folder.recsh(["t.json", "-c", "list"])
    #expect(reader.status == 0, "\(reader.stderr)")
    #expect(reader.stdout.contains("one"), "the second sees the saved file, not the first's unsaved edit")
    let second = try folder.recsh(["t.json", "-c", "use b2; set title second; save"])
    #expect(second.status == 3)
    #expect(
      second.stderr
        == "<command>:1: error: \"t.json\" is being edited by another recsh (process \(first.process.processIdentifier)); "
        + "only one recsh may write a file at a time\n")
    #expect(try !folder.read("t.json").contains("second"))
    first.send("quit!\n")
    first.close()
    let free = try folder.recsh(["t.json", "-c", "use b2; set title second; save"])
    #expect(free.status == 0, "free again after the first one ended: \(free.stderr)")
  }

  @Test func aScriptRefusesALeftoverJournalAndNamesTheFlags() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let child = try InteractivePipe(arguments: ["t.json"], directory: folder.url)
    child.send("use a1\nset title killed\nshow\n")
    _ = try child.readUntil("killed")
    kill(child.process.processIdentifier, SIGKILL)
    child.process.waitUntilExit()
    let refused = try folder.recsh(["t.json", "-c", "list"])
    #expect(refused.status == 3)
    #expect(refused.stderr.contains("has a journal of 1 unsaved change"))
    #expect(refused.stderr.contains("recsh --recover t.json"))
    #expect(refused.stderr.contains("recsh --discard-journal t.json"))
    let recovered = try folder.recsh(["--recover", "t.json", "-c", "show a1"])
    #expect(recovered.status == 0)
    #expect(recovered.stdout.contains("title     killed"))
  }

  @Test func aNormalExitClosesTheLogAndAHangupLeavesItsStepsToRecover() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    _ = try folder.recsh(["t.json", "-c", "use a1; set title x"])
    // Closed: the next open is silent, and the unsaved step comes back with redo.
    let next = try folder.recsh(["t.json", "-c", "redo; show a1"])
    #expect(next.status == 0)
    #expect(next.stdout.contains("Redid: Set title\n"))
    #expect(next.stdout.contains("title     x\n"))
    let off = try folder.recsh(["--no-undo-file", "t.json", "-c", "use a1; set title y"])
    #expect(off.status == 0)
    #expect(!folder.exists(folder.logPath("t.json")), "with the history off a normal exit removes the log")
    let child = try InteractivePipe(arguments: ["t.json"], directory: folder.url)
    child.send("use a1\nset title hung\nshow\n")
    _ = try child.readUntil("hung")
    kill(child.process.processIdentifier, SIGHUP)
    child.process.waitUntilExit()
    #expect(folder.exists(folder.logPath("t.json")))
  }
}
