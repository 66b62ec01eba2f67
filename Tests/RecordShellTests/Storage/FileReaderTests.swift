import Glibc
import Testing

@testable import RecordShell

@Suite struct FileReaderTests {
  let fileSystem = PosixFileSystem()

  @Test(arguments: [0, 1, 4096, 4097, 1_000_000])
  func aFileIsReadWhole(size: Int) throws {
    try TestDirectory.with { folder throws in
      let bytes = sampleBytes(size, seed: 3)
      let path = try folder.write("tasks.json", bytes)
      let (read, identity) = try FileReader.readFile(path, using: fileSystem)
      #expect(read == bytes)
      #expect(identity.size == Int64(size))
      #expect(try FileIdentity.current(at: path, using: fileSystem) == identity)
    }
  }

  @Test func shortReadsAreContinued() throws {
    try TestDirectory.with { folder throws in
      let bytes = sampleBytes(100)
      let path = try folder.write("tasks.json", bytes)
      let faults = FaultInjectingFileSystem()
      faults.maximumTransfer = 9
      #expect(try FileReader.readFile(path, using: faults).bytes == bytes)
      #expect(faults.calls.filter { $0.call == .read }.count == 13)  // 12 of data, 1 at the end
    }
  }

  @Test func theIdentityComesFromTheDescriptorThatWasRead() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1])
      let faults = FaultInjectingFileSystem()
      _ = try FileReader.readFile(path, using: faults)
      #expect(faults.calls.map(\.call) == [.open, .fstat, .read, .read, .close])
    }
  }

  @Test func aMissingFileIsReportedAsNotFound() throws {
    try TestDirectory.with { folder throws in
      let path = folder.path("missing.json")
      let error = #expect(throws: StorageError.self) { try FileReader.readFile(path, using: fileSystem) }
      #expect(error == .notFound(path: path))
      #expect(error?.description == "cannot read \"\(path)\": no such file")
    }
  }

  @Test func aDirectoryIsRefused() throws {
    try TestDirectory.with { folder throws in
      let error = #expect(throws: StorageError.self) {
        try FileReader.readFile(folder.path, using: fileSystem)
      }
      #expect(error == .notRegularFile(.read, path: folder.path, kind: .directory))
      #expect(error?.description == "cannot read \"\(folder.path)\": it is a directory, not a regular file")
    }
  }

  @Test func aNamedPipeIsRefusedWithoutWaitingForAWriter() throws {
    try TestDirectory.with { folder throws in
      #expect(mkfifo(folder.path("pipe"), 0o644) == 0)
      #expect(throws: StorageError.notRegularFile(.read, path: folder.path("pipe"), kind: .namedPipe)) {
        try FileReader.readFile(folder.path("pipe"), using: fileSystem)
      }
    }
  }

  @Test func aSymbolicLinkIsFollowed() throws {
    try TestDirectory.with { folder throws in
      try folder.write("real.json", [4, 5])
      #expect(symlink("real.json", folder.path("link.json")) == 0)
      let (bytes, identity) = try FileReader.readFile(folder.path("link.json"), using: fileSystem)
      #expect(bytes == [4, 5])
      #expect(try identity == FileIdentity.current(at: folder.path("real.json"), using: fileSystem))
    }
  }

  @Test(arguments: [EACCES, EIO, EMFILE])
  func aFailureAtAnyCallIsReportedWithTheCallAndPath(code: Int32) throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", sampleBytes(10))
      let calls = [SystemCall.open, .fstat, .read]
      for (index, call) in calls.enumerated() {
        let faults = FaultInjectingFileSystem(fault: .once(at: index + 1, code: code))
        let error = #expect(throws: StorageError.self) { try FileReader.readFile(path, using: faults) }
        #expect(error == .failed(.read, path: path, cause: SystemCallError(call, code: code, path: path)))
        let expected = SystemCallError(call, code: code, path: path)
        #expect(error?.description == "cannot read \"\(path)\": \(expected.summary) (\(call.name))")
        #expect(faults.calls.filter { $0.call == .close }.count == (call == .open ? 0 : 1), "closed once")
      }
    }
  }

  @Test func aFailedCloseAfterReadingLosesNothing() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1, 2])
      let faults = FaultInjectingFileSystem(fault: .once(at: 5, code: EIO))
      #expect(try FileReader.readFile(path, using: faults).bytes == [1, 2])
      #expect(faults.calls.last?.call == .close)
    }
  }
}
