import Foundation
import Glibc
import RecordKit
import Testing

@testable import RecordShell

/// Crashes at random moments and at every I/O call: what recovery gives back
/// is always a state the session was in — the last acknowledged one after a
/// kill — never a mix, and the data file is always whole.
@Suite struct JournalCrashTests {
  typealias TaskSession = Session<TaskRecord>

  static let start = JournalRecoveryTests.start

  /// A random line of input; errors (a bad REF, undo with nothing to undo) are part of the mix.
  static func randomLine(using g: inout SystemRandomNumberGenerator) -> String {
    let n = Int.random(in: 1...4, using: &g)
    switch Int.random(in: 0..<100, using: &g) {
    case 0..<15: return "use @\(n)"
    case 15..<35: return "set title t\(Int.random(in: 0..<5, using: &g))"
    case 35..<45: return "set priority \(Int.random(in: 0...6, using: &g)) done true"
    case 45..<53: return "new title n\(n)"
    case 53..<57: return "delete @\(n)"
    case 57..<62: return "add tags x\(n)"
    case 62..<67: return "begin g\(n)"
    case 67..<72: return "end"
    case 72..<74: return "rollback"
    case 74..<84: return "undo \(Int.random(in: 1...2, using: &g))"
    case 84..<92: return "redo"
    case 92..<96: return "save"
    default: return "set +c\(n) \(n)"
    }
  }

  /// Runs random lines, acknowledging (writing the journal) at random, then kills
  /// the session; recovery must give the last acknowledged state exactly.
  @Test func aKilledSessionRecoversToItsLastAcknowledgedState() throws {
    var generator = SystemRandomNumberGenerator()
    for run in 0..<150 {
      try TestDirectory.with { folder in
        try folder.write("t.json", Self.start)
        var session = try retryingLock {
          try TaskSession.open(
            path: folder.path("t.json"), isInteractive: run % 2 == 0,
            stateFolder: testState(for: folder.path("t.json")))
        }.session
        var acknowledged = session.document.records
        var lines: [String] = []
        for _ in 0..<Int.random(in: 1...40, using: &generator) {
          let line = Self.randomLine(using: &generator)
          lines.append(line)
          let saved = (try? session.run(line: line)) != nil && line == "save"
          // A save is acknowledged by the file itself.
          if saved || Bool.random(using: &generator) {
            if Bool.random(using: &generator) { session.syncJournal() } else { session.writeJournal() }
            acknowledged = session.document.records
          }
        }
        session.simulateKill()
        let opened = try retryingLock {
          try TaskSession.open(
            path: folder.path("t.json"), recovery: .recover,
            stateFolder: testState(for: folder.path("t.json")))
        }
        #expect(opened.session.document.records == acknowledged, "run \(run): \(lines)")
        var recovered = opened.session
        recovered.close()
      }
    }
  }

  /// A power cut loses what was written but not flushed to the disk: recovery
  /// then gives an earlier state the session was in, never a mix.
  @Test func aPowerCutRecoversToAStateTheSessionWasIn() throws {
    var generator = SystemRandomNumberGenerator()
    for run in 0..<100 {
      try TestDirectory.with { folder in
        try folder.write("t.json", Self.start)
        let fileSystem = FaultInjectingFileSystem()
        // At the prompt `syncJournal` is an fsync every time; the power cut may then
        // lose only what came after the last one.
        var session = try retryingLock {
          try TaskSession.open(
            path: folder.path("t.json"), fileSystem: fileSystem, isInteractive: true,
            stateFolder: testState(for: folder.path("t.json")))
        }.session
        var states = [session.document.records]
        var lastSynced = 0
        var lines: [String] = []
        for _ in 0..<Int.random(in: 1...30, using: &generator) {
          let line = Self.randomLine(using: &generator)
          lines.append(line)
          let saved = (try? session.run(line: line)) != nil && line == "save"
          states.append(session.document.records)
          // A save is flushed to the disk, the file and the restarted journal both.
          if saved { lastSynced = states.count - 1 }
          switch Int.random(in: 0..<3, using: &generator) {
          case 0: session.writeJournal()
          case 1:
            session.syncJournal()
            if session.persistence.journal?.failure == nil { lastSynced = states.count - 1 }
          default: break
          }
        }
        session.writeJournal()
        session.simulateKill()
        let journalPath = folder.logPath("t.json")
        truncate(journalPath, off_t(fileSystem.syncedLengths[journalPath] ?? 0))
        let recovered = try retryingLock {
          try TaskSession.open(
            path: folder.path("t.json"), recovery: .recover,
            stateFolder: testState(for: folder.path("t.json")))
        }.session
        #expect(states[lastSynced...].contains(recovered.document.records), "run \(run): \(lines)")
        var closing = recovered
        closing.close()
      }
    }
  }

  /// The lines of the crash-point sweep: edits, a save, more edits, an undo past the save.
  static let sweepLines = [
    "use a1", "set title A", "new title three", "begin g", "use b2", "set title B", "end", "save", "undo",
    "undo", "use a1", "set title again",
  ]

  /// Every I/O call of opening, the first edit (making the state folder and the log, its
  /// start records), journaling, saving and recovering fails in turn
  /// (once, and from there on); then the process is killed, and recovered with
  /// working I/O. The result is always a state the session was in, and the data
  /// file always a whole one.
  @Test(arguments: [false, true])
  func aFailureAtEveryIOCallRecoversToAStateTheSessionWasIn(fromThereOn: Bool) throws {
    let total = try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      let counter = FaultInjectingFileSystem()
      var session = try retryingLock {
        try TaskSession.open(
          path: folder.path("t.json"), fileSystem: counter, stateFolder: testState(for: folder.path("t.json"))
        )
      }.session
      for line in Self.sweepLines {
        _ = try session.run(line: line)
        session.writeJournal()
      }
      session.simulateKill()
      return counter.callCount
    }
    #expect(total > 30)
    for failing in 1...total {
      try TestDirectory.with { folder in
        try folder.write("t.json", Self.start)
        let fault: FaultInjectingFileSystem.Fault =
          fromThereOn ? .from(failing, code: EIO) : .once(at: failing, code: EIO)
        let fileSystem = FaultInjectingFileSystem(fault: fault)
        var states = [try RecordFile<TaskRecord>.decode(Self.start).document.records]
        if var session = try? TaskSession.open(
          path: folder.path("t.json"), fileSystem: fileSystem,
          stateFolder: testState(for: folder.path("t.json"))
        ).session {
          for line in Self.sweepLines {
            _ = try? session.run(line: line)
            session.writeJournal()
            states.append(session.document.records)
          }
          session.simulateKill()
        }
        let onDisk = try RecordFile<TaskRecord>.decode(try folder.read("t.json")).document.records
        #expect(states.contains(onDisk), "call \(failing): the data file is a state the session was in")
        // Recovery with working I/O; a journal the save outran is refused, and discarding it opens the file.
        var recovered: TaskSession
        do {
          recovered = try retryingLock {
            try TaskSession.open(
              path: folder.path("t.json"), recovery: .recover,
              stateFolder: testState(for: folder.path("t.json")))
          }.session
        } catch SessionError.journal(let error) {
          #expect(error == .baseMismatch, "call \(failing): \(error)")
          recovered = try retryingLock {
            try TaskSession.open(
              path: folder.path("t.json"), recovery: .discard,
              stateFolder: testState(for: folder.path("t.json")))
          }.session
        }
        #expect(
          states.contains(recovered.document.records), "call \(failing) (\(fromThereOn ? "from" : "once"))")
        recovered.close()
      }
    }
  }

  /// A compaction (at a normal exit, the log holding more than the limit keeps) under a
  /// failure at every I/O call it makes, the process then dying: the next open finds the
  /// file as saved and a history that reads back, the old log or the new one, and `undo`
  /// walks it. Then a recovery under the same sweep: a failure leaves the log recoverable.
  @Test(arguments: [false, true])
  func aFailureAtEveryIOCallOfACompactionLeavesAHistory(fromThereOn: Bool) throws {
    // Eight steps under a limit of three: five dropped, more than the limit, so a
    // compaction is due (with no slack); the save is of a kept state.
    let lines = [
      "use a1", "set title a", "set title b", "set title c", "set title d", "set title e", "set title f",
      "set title g", "save", "set title h", "undo",
    ]
    func session(in folder: TestDirectory, _ fileSystem: FaultInjectingFileSystem) throws -> TaskSession {
      var session = try retryingLock {
        try TaskSession.open(
          path: folder.path("t.json"), fileSystem: fileSystem, undoLimit: 3,
          stateFolder: testState(for: folder.path("t.json")))
      }.session
      session.persistence.compactionSlack = 0
      for line in lines { _ = try session.run(line: line) }
      session.writeJournal()
      return session
    }
    let calls = try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      let counter = FaultInjectingFileSystem()
      var open = try session(in: folder, counter)
      let before = counter.callCount
      open.close()
      #expect(folder.exists(folder.logPath("t.json")))
      return (before, counter.callCount)
    }
    #expect(calls.1 - calls.0 > 5, "the compaction makes calls to sweep")
    for failing in (calls.0 + 1)...calls.1 {
      try TestDirectory.with { folder in
        try folder.write("t.json", Self.start)
        let fileSystem = FaultInjectingFileSystem()
        var open = try session(in: folder, fileSystem)
        let saved = try folder.read("t.json")
        fileSystem.fault = fromThereOn ? .from(failing, code: EIO) : .once(at: failing, code: EIO)
        open.close()
        #expect(try folder.read("t.json") == saved, "call \(failing): the data file is untouched")
        // A failure may also have kept the exit from marking the log closed: then the
        // unsaved steps are recovered (the state the session was in), else it opens saved.
        // The file is as saved either way.
        var next = try retryingLock {
          try TaskSession.open(
            path: folder.path("t.json"), undoLimit: 3, recovery: .recover,
            stateFolder: testState(for: folder.path("t.json")))
        }.session
        // The session was at its saved state (it undid its last step): either way, there.
        #expect(next.document.records.first?.title == "g", "call \(failing): at the saved state")
        _ = try next.run(line: "undo")
        #expect(
          next.document.records.first?.title == "f", "call \(failing): undo walks the history read back")
        next.close()
      }
    }
  }

  /// Recovery itself under faults: it fails cleanly, changes nothing, and a second try works.
  @Test func aFailureDuringRecoveryChangesNothing() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      var session = try retryingLock {
        try TaskSession.open(path: folder.path("t.json"), stateFolder: testState(for: folder.path("t.json")))
      }.session
      for line in ["use a1", "set title x", "new title y"] { _ = try session.run(line: line) }
      session.writeJournal()
      let expected = session.document.records
      session.simulateKill()
      let journal = try folder.read(folder.logPath("t.json"))
      let counter = FaultInjectingFileSystem()
      var probe = try retryingLock {
        try TaskSession.open(
          path: folder.path("t.json"), fileSystem: counter, recovery: .recover,
          stateFolder: testState(for: folder.path("t.json")))
      }
      .session
      probe.simulateKill()
      try folder.write(folder.logPath("t.json"), journal, mode: 0o600)
      for failing in 1...counter.callCount {
        let fileSystem = FaultInjectingFileSystem(fault: .once(at: failing, code: EIO))
        if var attempt = try? TaskSession.open(
          path: folder.path("t.json"), fileSystem: fileSystem, recovery: .recover,
          stateFolder: testState(for: folder.path("t.json"))
        )
        .session {
          #expect(attempt.document.records == expected, "call \(failing)")
          attempt.simulateKill()
        }
        #expect(try folder.read("t.json") == Self.start, "call \(failing)")
        let again = try retryingLock {
          try TaskSession.open(
            path: folder.path("t.json"), recovery: .recover,
            stateFolder: testState(for: folder.path("t.json")))
        }
        .session
        #expect(again.document.records == expected, "call \(failing): a second recovery")
        var closing = again
        closing.simulateKill()
        try folder.write(folder.logPath("t.json"), journal, mode: 0o600)
      }
    }
  }
}
