import Glibc
import RecordKit
import Testing

@testable import RecordShell

/// Each error path that once turned one failure into another now reports the real cause:
/// the call, the errno and the path, with the exact message.
@Suite struct ErrorCauseTests {
  typealias TaskSession = Session<TaskRecord>

  /// A session on the two-task start file, through a file system that can fail calls.
  static func openedWithFaults(in folder: TestDirectory) throws -> (TaskSession, FaultInjectingFileSystem) {
    try folder.write("t.json", JournalRecoveryTests.start)
    let fileSystem = FaultInjectingFileSystem()
    let session = try retryingLock {
      try TaskSession.open(
        path: folder.path("t.json"), fileSystem: fileSystem,
        stateFolder: testState(for: folder.path("t.json")))
    }
    return (session.session, fileSystem)
  }

  /// The `stat` of the changed-on-disk check fails: that failure is reported, not
  /// "changed on disk" (what an unknown error used to become).
  @Test func aFailedChangeCheckSaysWhyItFailed() throws {
    try TestDirectory.with { folder in
      let (opened, fileSystem) = try Self.openedWithFaults(in: folder)
      var session = opened
      _ = try session.run(line: "use a1; set title x")
      fileSystem.fault = .once(at: fileSystem.callCount + 1, code: EIO)
      #expect(
        throws: SessionError.storage(
          .failed(
            .check, path: folder.path("t.json"),
            cause: SystemCallError(.stat, code: EIO, path: folder.path("t.json"))))
      ) {
        _ = try session.run(line: "save")
      }
      let message =
        "\(SessionError.storage(.failed(.check, path: "t.json", cause: SystemCallError(.stat, code: EIO, path: "t.json"))))"
      #expect(message == "cannot check whether \"t.json\" changed on disk: EIO: input/output error (stat)")
      #expect(session.isDirty)
      session.close()
    }
  }

  /// Recovery replays the journal, then cuts a torn tail off it: when that `ftruncate`
  /// fails, its errno is reported (it used to be replaced by an invented EIO with no path),
  /// and the file is not opened (a recovery without its log would be lost again).
  @Test func aFailedRecoveryNamesTheCallAndItsErrno() throws {
    try TestDirectory.with { folder in
      try JournalRecoveryTests.killedSession(in: folder, running: ["use a1", "set title edited"])
      try folder.write(
        folder.logPath("t.json"), try folder.read(folder.logPath("t.json")) + [1, 2, 3], mode: 0o600)
      let fileSystem = FaultInjectingFileSystem()
      fileSystem.fault = .from(
        1, code: EROFS, sparing: Set(SystemCall.allCases).subtracting([.ftruncate]))
      let journal = folder.logPath("t.json")
      do {
        _ = try retryingLock {
          try TaskSession.open(
            path: folder.path("t.json"), fileSystem: fileSystem, recovery: .recover,
            stateFolder: testState(for: folder.path("t.json")))
        }
        Issue.record("recovered with a failing ftruncate")
      } catch let error as SessionError {
        #expect(
          error
            == .storage(
              .failed(.save, path: journal, cause: SystemCallError(.ftruncate, code: EROFS, path: journal))))
        #expect(error.description == "cannot save \"\(journal)\": EROFS: read-only file system (ftruncate)")
      }
      #expect(try folder.read("t.json") == JournalRecoveryTests.start)
    }
  }

  /// `--discard-journal` copies the journal to a backup first; when that copy cannot be
  /// made, the storage error of that save is reported as it is.
  @Test func aFailedJournalBackupSaysWhatFailed() throws {
    try TestDirectory.with { folder in
      try JournalRecoveryTests.killedSession(in: folder, running: ["use a1", "set title edited"])
      let fileSystem = FaultInjectingFileSystem()
      fileSystem.failOpens(of: ".tmp", code: ENOSPC)
      do {
        _ = try retryingLock {
          try TaskSession.open(
            path: folder.path("t.json"), fileSystem: fileSystem, recovery: .discard,
            stateFolder: testState(for: folder.path("t.json")))
        }
        Issue.record("discarded with a failing backup")
      } catch let error as SessionError {
        let pattern = try Regex(
          #"^cannot save "(.*)/t\.json-[0-9a-f]{16}\.\d+\.bak": ENOSPC: no space left on device "#
            + #"\(creating a temporary file in "(.*)"\)$"#)
        #expect(error.description.wholeMatch(of: pattern) != nil, "\(error.description)")
      }
      #expect(folder.exists(folder.logPath("t.json")), "the journal is kept")
    }
  }

  /// A journal write that fails is reported once, with its call and errno, and the edits
  /// go on in memory.
  @Test func aFailedJournalWriteIsReportedOnceWithItsCall() throws {
    try TestDirectory.with { folder in
      let (opened, fileSystem) = try Self.openedWithFaults(in: folder)
      var session = opened
      fileSystem.fault = .from(
        fileSystem.callCount + 1, code: ENOSPC, sparing: Set(SystemCall.allCases).subtracting([.write]))
      _ = try session.run(line: "use a1; set title x")
      session.writeJournal()
      let journal = folder.logPath("t.json")
      #expect(
        session.journalFailureReport()
          == "cannot write the journal \"\(journal)\": ENOSPC: no space left on device (write); "
          + "crash recovery is off until the next save")
      #expect(session.journalFailureReport() == nil, "said once")
      _ = try session.run(line: "set title y")
      #expect(session.document.records[0].title == "y")
      // Once the disk has room, a save writes the log whole again: recovery is back on,
      // and the next session has every step.
      fileSystem.fault = nil
      _ = try session.run(line: "save; set title z")
      session.writeJournal()
      #expect(session.persistence.journal?.failure == nil)
      session.close()
      var next = try retryingLock {
        try Session<TaskRecord>.open(
          path: folder.path("t.json"), stateFolder: testState(for: folder.path("t.json")))
      }.session
      _ = try next.run(line: "redo; undo 3")
      #expect(next.document.records[0].title == "one")
      next.close()
    }
  }
}
