import Glibc
import Testing

@testable import RecordShell

@Suite struct AtomicFileTests {
  let fileSystem = PosixFileSystem()

  @Test(arguments: [0, 1, 4097, 10 * 1024 * 1024])
  func savedBytesReadBackEqual(size: Int) throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", Array("[]\n".utf8))
      let bytes = sampleBytes(size, seed: 7)
      try AtomicFile.save(bytes: bytes, to: path, using: fileSystem)
      #expect(try folder.read("tasks.json") == bytes)
      #expect(try FileReader.readFile(path, using: fileSystem).bytes == bytes)
      #expect(try folder.entries() == ["tasks.json"])
    }
  }

  @Test func aSaveCreatesAFileThatDidNotExist() throws {
    try TestDirectory.with { folder throws in
      let outcome = try AtomicFile.save(bytes: [1, 2, 3], to: folder.path("new.json"), using: fileSystem)
      #expect(try folder.read("new.json") == [1, 2, 3])
      #expect(outcome.warning == nil)
      #expect(try folder.entries() == ["new.json"])
    }
  }

  @Test func theIdentityChangesWithASaveAndTheOutcomeHasTheNewOne() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", sampleBytes(100))
      let before = try FileReader.readFile(path, using: fileSystem).identity
      let outcome = try AtomicFile.save(bytes: sampleBytes(100, seed: 1), to: path, using: fileSystem)
      #expect(outcome.identity != before)
      #expect(try FileIdentity.current(at: path, using: fileSystem) == outcome.identity)
      #expect(try !FileIdentity.fileChanged(at: path, since: outcome.identity, using: fileSystem))
    }
  }

  @Test(arguments: [0o600, 0o640, 0o664, 0o755, 0o444] as [mode_t])
  func anExistingFileKeepsItsPermissions(mode: mode_t) throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1], mode: mode)
      guard mode & 0o200 != 0 || getuid() == 0 else { return }  // 0444 is refused unless root
      try AtomicFile.save(bytes: [2], to: path, using: fileSystem)
      #expect(try folder.permissions("tasks.json") == mode)
    }
  }

  @Test func aNewFileGetsReadWriteForAllMinusTheUmask() throws {
    try TestDirectory.with { folder throws in
      try AtomicFile.save(bytes: [1], to: folder.path("new.json"), using: fileSystem)
      #expect(try folder.permissions("new.json") == 0o666 & ~currentUmask())
    }
  }

  @Test(.enabled(if: getuid() == 0, "only root can give a file away"))
  func anExistingFileKeepsItsOwnerAndGroup() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1], mode: 0o640)
      #expect(chown(path, 4321, 8765) == 0)
      try AtomicFile.save(bytes: [2], to: path, using: fileSystem)
      let status = try folder.status("tasks.json")
      #expect(status.st_uid == 4321 && status.st_gid == 8765)
      #expect(status.st_mode & 0o7777 == 0o640)
    }
  }

  @Test func whenTheOwnerCannotBeKeptTheGroupStillIs() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1], mode: 0o4750)
      let faults = FaultInjectingFileSystem()
      faults.fault = .once(at: 5, code: EPERM)  // lstat, access, open, write, [fchown]
      try AtomicFile.save(bytes: [2], to: path, using: faults)
      #expect(faults.calls.map(\.call).filter { $0 == .fchown }.count == 2)
      #expect(try folder.permissions("tasks.json") == 0o750, "setuid dropped with the owner")
    }
  }

  @Test func whenNeitherOwnerNorGroupCanBeKeptTheGroupGetsWhatOthersGet() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1], mode: 0o2764)
      let faults = FaultInjectingFileSystem()
      faults.fault = .from(4, code: EPERM, sparing: Set(SystemCall.allCases).subtracting([.fchown]))
      try AtomicFile.save(bytes: [2], to: path, using: faults)
      #expect(try folder.read("tasks.json") == [2])
      #expect(try folder.permissions("tasks.json") == 0o744)
    }
  }

  @Test func shortWritesAreContinued() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1])
      let faults = FaultInjectingFileSystem()
      faults.maximumTransfer = 7
      let bytes = sampleBytes(100)
      try AtomicFile.save(bytes: bytes, to: path, using: faults)
      #expect(try folder.read("tasks.json") == bytes)
      #expect(faults.calls.filter { $0.call == .write }.count == 15)
    }
  }

  @Test func aTakenTemporaryNameIsRetriedWithAnother() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1])
      let faults = FaultInjectingFileSystem(fault: .once(at: 3, code: EEXIST))
      try AtomicFile.save(bytes: [2], to: path, using: faults)
      let opens = faults.calls.filter { $0.call == .open }
      #expect(opens.count == 2 && opens[0].path != opens[1].path)
      #expect(try folder.read("tasks.json") == [2])
    }
  }

  @Test func afterAHundredTakenNamesTheSaveGivesUp() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1])
      let faults = FaultInjectingFileSystem(
        fault: .from(1, code: EEXIST, sparing: Set(SystemCall.allCases).subtracting([.open])))
      let error = #expect(throws: StorageError.self) {
        try AtomicFile.save(bytes: [2], to: path, using: faults)
      }
      #expect(faults.calls.filter { $0.call == .open }.count == TemporaryFile.maximumAttempts)
      #expect(
        error?.description
          == "cannot save \"\(path)\": EEXIST: file exists (creating a temporary file in \"\(folder.path)\")")
      #expect(try folder.entries() == ["tasks.json"])
    }
  }

  @Test func theTemporaryFileIsHiddenAndNamedAfterTheFile() throws {
    try TestDirectory.with { folder throws in
      let faults = FaultInjectingFileSystem()
      try AtomicFile.save(bytes: [1], to: folder.path("tasks.json"), using: faults)
      let open = try #require(faults.calls.first { $0.call == .open })
      let name = String(open.path.dropFirst(folder.path.count + 1))
      #expect(name.hasPrefix(".tasks.json.recsh-") && name.hasSuffix(".tmp"))
      #expect(name.count == ".tasks.json.recsh-XXXXXX.tmp".count)
    }
  }

  @Test func aVeryLongFileNameStillGetsATemporaryFile() throws {
    try TestDirectory.with { folder throws in
      let name = String(repeating: "é", count: 120) + ".json"  // 245 bytes
      try AtomicFile.save(bytes: [1], to: folder.path(name), using: fileSystem)
      #expect(try folder.read(name) == [1])
    }
  }

  @Test func aRelativePathIsSavedInTheCurrentFolder() throws {
    let target = try SaveTarget.resolve("no-such-file-for-recsh-tests.json", using: fileSystem)
    #expect(target.folder == "." && target.name == "no-such-file-for-recsh-tests.json")
    #expect(target.original == nil)
  }

  @Test func aFileInTheRootFolderHasTheRootAsItsFolder() throws {
    let target = try SaveTarget.resolve("/no-such-file-for-recsh-tests.json", using: fileSystem)
    #expect(target.folder == "/" && target.name == "no-such-file-for-recsh-tests.json")
  }

  @Test func savingOntoADirectoryIsRefused() throws {
    try TestDirectory.with { folder throws in
      #expect(mkdir(folder.path("data"), 0o755) == 0)
      let error = #expect(throws: StorageError.self) {
        try AtomicFile.save(bytes: [1], to: folder.path("data"), using: fileSystem)
      }
      #expect(error == .notRegularFile(.save, path: folder.path("data"), kind: .directory))
      #expect(
        error?.description == "cannot save \"\(folder.path("data"))\": it is a directory, not a regular file")
      #expect(try folder.entries() == ["data"])
      #expect(try folder.entries(in: "data") == [])
    }
  }

  @Test func savingOntoANamedPipeIsRefused() throws {
    try TestDirectory.with { folder throws in
      #expect(mkfifo(folder.path("pipe"), 0o644) == 0)
      #expect(throws: StorageError.notRegularFile(.save, path: folder.path("pipe"), kind: .namedPipe)) {
        try AtomicFile.save(bytes: [1], to: folder.path("pipe"), using: fileSystem)
      }
    }
  }

  @Test func savingIntoAMissingFolderNamesTheFolder() throws {
    try TestDirectory.with { folder throws in
      let path = folder.path("missing/tasks.json")
      let error = #expect(throws: StorageError.self) {
        try AtomicFile.save(bytes: [1], to: path, using: fileSystem)
      }
      #expect(
        error?.description
          == "cannot save \"\(path)\": ENOENT: no such file or directory"
          + " (creating a temporary file in \"\(folder.path("missing"))\")")
    }
  }

  @Test(.enabled(if: getuid() != 0, "root may write anything"))
  func aReadOnlyFileIsNotReplaced() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1], mode: 0o444)
      #expect(
        throws: StorageError.failed(
          .save, path: path, cause: SystemCallError(.access, code: EACCES, path: path))
      ) {
        try AtomicFile.save(bytes: [2], to: path, using: fileSystem)
      }
      #expect(try folder.read("tasks.json") == [1])
    }
  }

  @Test(.enabled(if: getuid() != 0, "root may write anything"))
  func aReadOnlyFolderFailsTheSaveAndKeepsTheOriginal() throws {
    try TestDirectory.with { folder throws in
      #expect(mkdir(folder.path("locked"), 0o755) == 0)
      let path = try folder.write("locked/tasks.json", [1])
      #expect(chmod(folder.path("locked"), 0o555) == 0)
      defer { chmod(folder.path("locked"), 0o755) }
      let error = #expect(throws: StorageError.self) {
        try AtomicFile.save(bytes: [2], to: path, using: fileSystem)
      }
      #expect(error?.cause?.code == EACCES)
      #expect(try folder.read("locked/tasks.json") == [1])
    }
  }
}

extension AtomicFileTests {
  @Test func aSaveWrittenInChunksHoldsThemInOrder() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1])
      let bytes = sampleBytes(1000)
      let faults = FaultInjectingFileSystem()
      try AtomicFile.save(to: path, using: faults) { (write) throws(SystemCallError) in
        try bytes.withUnsafeBufferPointer { (buffer) throws(SystemCallError) in
          for start in stride(from: 0, to: buffer.count, by: 300) {
            try write(UnsafeBufferPointer(rebasing: buffer[start..<min(start + 300, buffer.count)]))
          }
        }
      }
      #expect(try folder.read("tasks.json") == bytes)
      #expect(faults.calls.filter { $0.call == .write }.count == 4)
    }
  }
}
