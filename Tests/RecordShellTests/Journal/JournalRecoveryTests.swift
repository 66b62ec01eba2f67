import Glibc
import Testing

@testable import RecordKit
@testable import RecordShell

/// Crash recovery through the session: what was written to the journal before
/// a kill comes back with `--recover`, undoable; groups open at the crash are
/// closed and kept; a journal for another version of the file is not applied.
@Suite struct JournalRecoveryTests {
  typealias TaskSession = Session<TaskRecord>

  static let start = Array(
    """
    [
      {
        "id": "a1aaaaaa",
        "title": "one"
      },
      {
        "id": "b2bbbbbb",
        "title": "two"
      }
    ]

    """.utf8)

  static func open(
    _ folder: TestDirectory, recovery: RecoveryChoice = .refuse,
    fileSystem: any FileSystem = PosixFileSystem()
  )
    throws -> TaskSession
  {
    try retryingLock {
      try TaskSession.open(
        path: folder.path("t.json"), fileSystem: fileSystem, recovery: recovery,
        stateFolder: testState(for: folder.path("t.json")))
    }.session
  }

  /// A session on the start file runs `lines`, writes its journal (everything is
  /// acknowledged) and is killed; what it had.
  @discardableResult
  static func killedSession(in folder: TestDirectory, running lines: [String]) throws -> [TaskRecord] {
    try folder.write("t.json", start)
    var session = try open(folder)
    try run(&session, lines)
    session.writeJournal()
    let records = session.document.records
    session.simulateKill()
    return records
  }

  static func run(_ session: inout TaskSession, _ lines: [String]) throws {
    for line in lines { _ = try session.run(line: line) }
  }

  @Test func killedSessionIsRecoveredWithItsStepsUndoable() throws {
    try TestDirectory.with { folder in
      let expected = try Self.killedSession(
        in: folder, running: ["use a1", "set title edited", "new title three", "use b2", "delete"])
      #expect(try folder.read("t.json") == Self.start, "nothing saved")
      #expect(throws: SessionError.self) { _ = try Self.open(folder) }
      var recovered = try Self.open(folder, recovery: .recover)
      #expect(recovered.document.records == expected)
      #expect(recovered.isDirty)
      #expect(recovered.editor.history.undoCount == 3)
      _ = try recovered.run(line: "undo 3")
      #expect(try RecordFile<TaskRecord>.decode(Self.start).document.records == recovered.document.records)
      recovered.close()
      #expect(folder.exists(folder.logPath("t.json")), "a normal exit keeps the history")
      // The next session is silent, at the saved state, with the recovered steps to redo.
      var next = try Self.open(folder)
      #expect(try RecordFile<TaskRecord>.decode(Self.start).document.records == next.document.records)
      _ = try next.run(line: "redo 3")
      #expect(next.document.records == expected)
      next.close()
    }
  }

  @Test func refusalNamesRecoverAndDiscard() throws {
    try TestDirectory.with { folder in
      try Self.killedSession(in: folder, running: ["use a1", "set title x"])
      do {
        _ = try Self.open(folder)
        Issue.record("opened a file with a leftover journal")
      } catch {
        let message = "\(error)"
        #expect(message.contains("has a journal of 1 unsaved change from a session that ended abnormally"))
        #expect(message.contains("--recover"))
        #expect(message.contains("--discard-journal"))
      }
    }
  }

  @Test func discardSetsTheJournalAsideAsABackup() throws {
    try TestDirectory.with { folder in
      try Self.killedSession(in: folder, running: ["use a1", "set title x"])
      let journal = try folder.read(folder.logPath("t.json"))
      var fresh = try Self.open(folder, recovery: .discard)
      #expect(fresh.document.records == (try RecordFile<TaskRecord>.decode(Self.start)).document.records)
      let backups = folder.backups(of: "t.json")
      #expect(backups.count == 1)
      #expect(try folder.read(backups[0]) == journal)
      fresh.close()
    }
  }

  @Test func groupsOpenAtTheCrashAreClosedAndKept() throws {
    try TestDirectory.with { folder in
      try Self.killedSession(
        in: folder, running: ["begin outer", "use a1", "set title A", "begin inner", "use b2", "set title B"])
      var recovered = try Self.open(folder, recovery: .recover)
      #expect(recovered.document.records.map(\.title) == ["A", "B"])
      #expect(recovered.editor.history.openGroups.isEmpty)
      #expect(recovered.editor.history.undoName == "outer")
      recovered.close()
    }
  }

  @Test func aCleanSaveResetsTheJournal() throws {
    try TestDirectory.with { folder in
      try Self.killedSession(in: folder, running: ["use a1", "set title x", "save"])
      // Nothing after the save: the file opens without asking.
      var again = try Self.open(folder)
      #expect(again.document.records.first?.title == "x")
      again.close()
    }
  }

  @Test func undoPastTheSavePointIsRecoveredThroughASnapshot() throws {
    try TestDirectory.with { folder in
      let expected = try Self.killedSession(
        in: folder,
        running: ["use a1", "set title x", "set title y", "save", "undo", "undo", "redo", "new title z"])
      var recovered = try Self.open(folder, recovery: .recover)
      #expect(recovered.document.records == expected)
      recovered.close()
    }
  }

  @Test func aJournalForAnotherVersionOfTheFileIsNotApplied() throws {
    try TestDirectory.with { folder in
      try Self.killedSession(in: folder, running: ["use a1", "set title x"])
      try folder.write("t.json", Self.start + Array("\n".utf8))
      #expect(throws: SessionError.journal(.baseMismatch)) { _ = try Self.open(folder, recovery: .recover) }
      #expect(try folder.read("t.json") == Self.start + Array("\n".utf8), "the file is untouched")
    }
  }

  @Test func aTornLastRecordIsDroppedWithAMessage() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      var session = try Self.open(folder)
      try Self.run(&session, ["use a1", "set title x"])
      session.writeJournal()
      let acknowledged = session.document.records
      try Self.run(&session, ["set title y"])
      session.writeJournal()
      session.simulateKill()
      let journal = try folder.read(folder.logPath("t.json"))
      try folder.write(folder.logPath("t.json"), Array(journal.dropLast(3)), mode: 0o600)
      let opened = try retryingLock {
        try TaskSession.open(
          path: folder.path("t.json"), recovery: .recover, stateFolder: testState(for: folder.path("t.json")))
      }
      #expect(opened.session.document.records == acknowledged)
      #expect(
        opened.warnings.contains { $0.contains("dropped a damaged last record") || $0.contains("incomplete") }
      )
      var session2 = opened.session
      session2.close()
    }
  }

  @Test func theJournalIsPrivateAndTheLockKeepsASecondWriterOut() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      var session = try Self.open(folder)
      var status = stat()
      #expect(stat(folder.logPath("t.json"), &status) == -1, "nothing is made before the first change")
      let reader = try Self.open(folder)
      #expect(reader.persistence.journal?.isActive == false, "a second session may read")
      _ = try session.run(line: "use a1; set title mine")
      #expect(stat(folder.logPath("t.json"), &status) == 0)
      #expect(status.st_mode & 0o777 == 0o600)
      // Opening and closing the journal elsewhere in this process does not drop the lock.
      let other = Glibc.open(folder.logPath("t.json"), O_RDONLY)
      #expect(other >= 0)
      close(other)
      let dataFile = Glibc.open(folder.path("t.json"), O_RDONLY)
      close(dataFile)
      var second = try Self.open(folder)
      do {
        _ = try second.run(line: "use a1; set title theirs")
        Issue.record("a second session edited a locked file")
      } catch {
        #expect((error as? SessionError) == .locked(path: folder.path("t.json"), pid: getpid()))
      }
      #expect(second.document.records[0].title == "one", "the refused edit changed nothing")
      session.close()
      var third = try Self.open(folder)
      third.close()
    }
  }

  @Test func whenTheJournalCannotBeCreatedRecoveryIsOffAndTheShellGoesOn() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      let fileSystem = FaultInjectingFileSystem()
      // Call 1-2 read the data file (open, fstat...); fail the journal's open with EACCES.
      fileSystem.failOpens(of: folder.logPath("t.json"), code: EACCES)
      let opened = try retryingLock {
        try TaskSession.open(
          path: folder.path("t.json"), fileSystem: fileSystem,
          stateFolder: testState(for: folder.path("t.json")))
      }
      #expect(opened.warnings.isEmpty, "nothing is made before the first edit")
      var session = opened.session
      let replies = try session.run(line: "use a1; set title x")
      #expect(replies.count == 1)
      guard case .warning(let warning)? = replies.first else {
        Issue.record("no warning at the first edit: \(replies)")
        return
      }
      #expect(
        warning.hasPrefix("cannot create the journal of \"\(folder.path("t.json"))\" (EACCES"), "\(warning)")
      #expect(warning.hasSuffix("crash recovery is off for this file"))
      #expect(session.persistence.journal == nil)
      try Self.run(&session, ["save"])
      #expect(try folder.read("t.json") != Self.start)
      session.close()
    }
  }
}

extension JournalRecoveryTests {
  /// The log's copy of the file is not checksummed at every open (it may be hundreds of
  /// megabytes): its content hash is checked when it is needed. Damaged there, it is
  /// refused then: the history is set aside with a message, never applied to a wrong state.
  @Test func damagedStartRecordsAreFoundWhenNeededAndTheHistoryIsSetAside() throws {
    try TestDirectory.with { folder in
      try folder.write("t.json", Self.start)
      var session = try Self.open(folder)
      _ = try session.run(line: "use a1; set title edited; save")
      session.close()
      // Flip one byte of the copied records, in their zstd frame (after its magic number).
      var log = try folder.read(folder.logPath("t.json"))
      let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
      let at = try #require((0...(log.count - 4)).first { log[$0..<($0 + 4)].elementsEqual(magic) })
      log[at + 12] ^= 0x20
      try folder.write(folder.logPath("t.json"), log, mode: 0o600)
      // Unchanged file: the copy is not needed, and the history reads back.
      var same = try Self.open(folder)
      #expect(same.editor.history.keptCount == 1)
      same.close()
      // Changed outside recsh: the copy is needed, and found damaged.
      try folder.write("t.json", Array(#"[{"id": "a1aaaaaa", "title": "theirs"}]"#.utf8))
      let opened = try retryingLock {
        try TaskSession.open(path: folder.path("t.json"), stateFolder: testState(for: folder.path("t.json")))
      }
      // zstd finds the damage, or the content hash does: either is said.
      #expect(
        opened.warnings.contains {
          $0.contains("its start records are damaged (their content hash differs)")
            || $0.contains("its start records cannot be decompressed")
        }, "\(opened.warnings)")
      #expect(opened.session.document.records.map(\.title) == ["theirs"])
      #expect(opened.session.editor.history.keptCount == 0)
      var next = opened.session
      next.close()
    }
  }
}
