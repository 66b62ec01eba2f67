import Glibc
import Testing

@testable import RecordShell

/// Fails every system call of a save in turn and checks that nothing is lost.
///
/// Each test first records the calls of a clean save of its scenario, then, for every call
/// number N of that list, saves again with call N failing — once, or from N on — and checks
/// the original, the folder and the message. Failures up to the rename must leave the
/// original byte-identical; failures after it (flushing the folder) leave the new content
/// in place and come back as a warning.
@Suite struct AtomicFileFaultTests {
  /// The situations a save meets, each with its own sequence of calls.
  enum Scenario: CaseIterable, CustomTestStringConvertible {
    case existingFile, newFile, symbolicLink, shortWrites, chunks

    var testDescription: String {
      switch self {
      case .existingFile: "an existing file"
      case .newFile: "a new file"
      case .symbolicLink: "a symbolic link to a file in another folder"
      case .shortWrites: "an existing file written in short pieces"
      case .chunks: "an existing file written in chunks, some in short pieces"
      }
    }
  }

  /// How long an injected failure lasts.
  enum Persistence: CaseIterable, CustomTestStringConvertible {
    /// Only call N fails.
    case once
    /// Call N and all later calls fail, clean-up included: a temporary file may stay.
    case fromThenOn
    /// Call N and all later calls fail except `unlink`, as on a full disk.
    case fromThenOnButUnlink

    var testDescription: String {
      switch self {
      case .once: "fails once"
      case .fromThenOn: "fails from then on"
      case .fromThenOnButUnlink: "fails from then on, except unlink"
      }
    }

    func fault(at number: Int, code: Int32) -> FaultInjectingFileSystem.Fault {
      switch self {
      case .once: .once(at: number, code: code)
      case .fromThenOn: .from(number, code: code)
      case .fromThenOnButUnlink: .from(number, code: code, sparing: [.unlink])
      }
    }
  }

  static let original = Array("[{\"id\": \"a1b2c3d4\", \"title\": \"old\"}]\n".utf8)
  static let replacement = Array("[{\"id\": \"a1b2c3d4\", \"title\": \"new title\"}]\n".utf8)

  /// Sets up the scenario in `folder` and returns the path to save to and the file whose
  /// content a save changes (the link's target for a symbolic link).
  private func prepare(_ scenario: Scenario, in folder: TestDirectory) throws -> (path: String, file: String)
  {
    switch scenario {
    case .existingFile, .shortWrites, .chunks:
      try folder.write("tasks.json", Self.original, mode: 0o640)
      return (folder.path("tasks.json"), "tasks.json")
    case .newFile:
      return (folder.path("tasks.json"), "tasks.json")
    case .symbolicLink:
      if !folder.exists("data") { #expect(mkdir(folder.path("data"), 0o755) == 0) }
      try folder.write("data/tasks.json", Self.original, mode: 0o600)
      if !folder.exists("tasks.json") { #expect(symlink("data/tasks.json", folder.path("tasks.json")) == 0) }
      return (folder.path("tasks.json"), "data/tasks.json")
    }
  }

  private func fileSystem(for scenario: Scenario) -> FaultInjectingFileSystem {
    let fileSystem = FaultInjectingFileSystem()
    if scenario == .shortWrites { fileSystem.maximumTransfer = 16 }
    if scenario == .chunks { fileSystem.maximumTransfer = 12 }
    return fileSystem
  }

  /// Saves the replacement as the scenario does: in one piece, or in chunks of 0–15 bytes.
  @discardableResult
  private func save(_ scenario: Scenario, to path: String, using fileSystem: FaultInjectingFileSystem)
    throws(StorageError) -> SaveOutcome
  {
    guard scenario == .chunks else {
      return try AtomicFile.save(bytes: Self.replacement, to: path, using: fileSystem)
    }
    return try AtomicFile.save(to: path, using: fileSystem) { (write) throws(SystemCallError) in
      try Self.replacement.withUnsafeBufferPointer { (bytes) throws(SystemCallError) in
        var start = 0
        for size in [5, 0, 15, 3] {
          try write(UnsafeBufferPointer(rebasing: bytes[start..<start + size]))
          start += size
        }
        try write(UnsafeBufferPointer(rebasing: bytes[start...]))
      }
    }
  }

  /// Every temporary file left in the scenario's folders.
  private func temporaryFiles(in folder: TestDirectory) throws -> [String] {
    let nested = folder.exists("data") ? try folder.entries(in: "data") : []
    return (try folder.entries() + nested).filter(isTemporaryName)
  }

  private func cleanSaveCalls(_ scenario: Scenario) throws -> [FaultInjectingFileSystem.Call] {
    try TestDirectory.with { folder throws in
      let (path, _) = try prepare(scenario, in: folder)
      let fileSystem = fileSystem(for: scenario)
      let outcome = try save(scenario, to: path, using: fileSystem)
      #expect(outcome.warning == nil)
      return fileSystem.calls
    }
  }

  @Test func aCleanSaveMakesTheseCallsInThisOrder() throws {
    let calls = try cleanSaveCalls(.existingFile).map(\.call)
    #expect(
      calls == [
        .lstat, .access, .open, .write, .fchown, .fchmod, .fsync, .fstat, .close, .rename,
        .openDirectory, .fsync, .close,
      ])
    #expect(
      try cleanSaveCalls(.newFile).map(\.call) == [
        .lstat, .open, .write, .fsync, .fstat, .close, .rename, .openDirectory, .fsync, .close,
      ])
    #expect(try cleanSaveCalls(.symbolicLink).map(\.call).prefix(4) == [.lstat, .realpath, .stat, .access])
  }

  @Test(arguments: Scenario.allCases, Persistence.allCases)
  func aFailureAtAnyCallLeavesTheOriginalAndNoTemporaryFile(scenario: Scenario, persistence: Persistence)
    throws
  {
    let cleanCalls = try cleanSaveCalls(scenario)
    let renameNumber = try #require(cleanCalls.firstIndex { $0.call == .rename }) + 1
    let temporaryOpenNumber = try #require(cleanCalls.firstIndex { $0.call == .open }) + 1
    for code in [ENOSPC, EIO] {
      for number in 1...cleanCalls.count {
        try TestDirectory.with { folder throws in
          let (path, file) = try prepare(scenario, in: folder)
          let entriesBefore = try folder.entries()
          let fileSystem = fileSystem(for: scenario)
          fileSystem.fault = persistence.fault(at: number, code: code)
          let failing = cleanCalls[number - 1]
          let context = Comment(rawValue: "call \(number) (\(failing.call.name)) fails with errno \(code)")

          if number <= renameNumber {
            let error = #expect(throws: StorageError.self, context) {
              try save(scenario, to: path, using: fileSystem)
            }
            let cause = SystemCallError(failing.call, code: code, path: fileSystem.pathOfCall(number))
            #expect(error?.cause == cause, context)
            #expect(error?.description == expectedMessage(path: path, cause: cause), context)
            if scenario == .newFile {
              #expect(!folder.exists(file), context)
            } else {
              #expect(try folder.read(file) == Self.original, context)
            }
            let leftBehind = persistence == .fromThenOn && number > temporaryOpenNumber ? 1 : 0
            #expect(try temporaryFiles(in: folder).count == leftBehind, context)
            #expect(try folder.entries().filter { !isTemporaryName($0) } == entriesBefore, context)
          } else {
            let outcome = try save(scenario, to: path, using: fileSystem)
            let cause = SystemCallError(failing.call, code: code, path: fileSystem.pathOfCall(number))
            #expect(outcome.warning == .folderNotFlushed(path: path, cause: cause), context)
            #expect(try folder.read(file) == Self.replacement, context)
            #expect(try temporaryFiles(in: folder).isEmpty, context)
            #expect(try FileIdentity.current(at: path, using: PosixFileSystem()) == outcome.identity, context)
          }

          // The same file system, without the fault, saves normally afterwards.
          fileSystem.fault = nil
          try save(scenario, to: path, using: fileSystem)
          #expect(try folder.read(file) == Self.replacement, context)
          #expect(try temporaryFiles(in: folder).count <= 1, context)
        }
      }
    }
  }

  @Test func aFailedFolderFlushIsWordedAsAWarningAboutASavedFile() throws {
    let cause = SystemCallError(.fsync, code: EIO, path: "/data")
    #expect(
      StorageError.folderNotFlushed(path: "tasks.json", cause: cause).description
        == "saved \"tasks.json\", but could not flush its folder: EIO: input/output error (fsync);"
        + " the save may not survive a system crash")
  }

  /// The message a failed call of a save must give; an `open` is the temporary file's.
  private func expectedMessage(path: String, cause: SystemCallError) -> String {
    let summary = "\(cause.codeName): \(cause.explanation)"
    if cause.call == .open, let slash = cause.path.lastIndex(of: "/") {
      let folder = cause.path[..<slash]
      return "cannot save \"\(path)\": \(summary) (creating a temporary file in \"\(folder)\")"
    }
    return "cannot save \"\(path)\": \(summary) (\(cause.call.name))"
  }
}

extension FaultInjectingFileSystem {
  /// The path of call number `number` (1-based) as made, or "" before it was made.
  fileprivate func pathOfCall(_ number: Int) -> String {
    calls.indices.contains(number - 1) ? calls[number - 1].path : ""
  }
}
