import Foundation
import Glibc
import Testing

@testable import RecordShell

@Suite struct FileIdentityTests {
  let fileSystem = PosixFileSystem()

  @Test func anUntouchedFileHasNotChanged() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1, 2, 3])
      let identity = try FileReader.readFile(path, using: fileSystem).identity
      _ = try FileReader.readFile(path, using: fileSystem)
      #expect(try !FileIdentity.fileChanged(at: path, since: identity, using: fileSystem))
    }
  }

  @Test func aFileRewrittenInPlaceHasChanged() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1, 2, 3])
      let identity = try FileReader.readFile(path, using: fileSystem).identity
      let handle = try #require(FileHandle(forWritingAtPath: path))
      try handle.write(contentsOf: [9, 9, 9, 9])
      try handle.close()
      #expect(try FileIdentity.current(at: path, using: fileSystem)?.inode == identity.inode)
      #expect(try FileIdentity.fileChanged(at: path, since: identity, using: fileSystem))
    }
  }

  @Test func aFileWithOnlyANewModificationTimeHasChanged() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1, 2, 3])
      let identity = try FileReader.readFile(path, using: fileSystem).identity
      let later = timespec(tv_sec: 2_000_000_000, tv_nsec: 123_456_789)
      let times = [later, later]
      #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
      let now = try #require(try FileIdentity.current(at: path, using: fileSystem))
      #expect(now.modificationTime == 2_000_000_000_123_456_789)
      #expect(now != identity)
    }
  }

  @Test func aFileReplacedByRenameHasChanged() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1, 2, 3])
      let identity = try FileReader.readFile(path, using: fileSystem).identity
      let other = try folder.write("other.json", [1, 2, 3])
      var times = [timespec](repeating: timespec(), count: 2)
      times[0] = timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)  // UTIME_OMIT: leave the access time
      times[1] = timespec(
        tv_sec: Int(identity.modificationTime / 1_000_000_000),
        tv_nsec: Int(identity.modificationTime % 1_000_000_000))
      #expect(utimensat(AT_FDCWD, other, times, 0) == 0, "same size and time: only the inode differs")
      #expect(rename(other, path) == 0)
      #expect(try FileIdentity.fileChanged(at: path, since: identity, using: fileSystem))
    }
  }

  @Test func aDeletedFileHasChanged() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1])
      let identity = try FileReader.readFile(path, using: fileSystem).identity
      #expect(unlink(path) == 0)
      #expect(try FileIdentity.current(at: path, using: fileSystem) == nil)
      #expect(try FileIdentity.fileChanged(at: path, since: identity, using: fileSystem))
    }
  }

  @Test func aFileThatStillDoesNotExistHasNotChanged() throws {
    try TestDirectory.with { folder throws in
      #expect(try !FileIdentity.fileChanged(at: folder.path("new.json"), since: nil, using: fileSystem))
    }
  }

  @Test func aFileCreatedWhereThereWasNoneHasChanged() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("new.json", [])
      #expect(try FileIdentity.fileChanged(at: path, since: nil, using: fileSystem))
    }
  }

  @Test func aFailedCheckIsAnErrorNotAnAnswer() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("tasks.json", [1])
      let faults = FaultInjectingFileSystem(fault: .once(at: 1, code: EACCES))
      let error = #expect(throws: StorageError.self) {
        try FileIdentity.fileChanged(at: path, since: nil, using: faults)
      }
      #expect(
        error?.description
          == "cannot check whether \"\(path)\" changed on disk: EACCES: permission denied (stat)")
    }
  }
}
