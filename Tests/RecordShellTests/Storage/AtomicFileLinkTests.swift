import Glibc
import Testing

@testable import RecordShell

/// Saving through a symbolic link writes the target and keeps the link.
@Suite struct AtomicFileLinkTests {
  @Test func aLinkStaysALinkAndItsTargetGetsTheContent() throws {
    try TestDirectory.with { folder throws in
      #expect(mkdir(folder.path("data"), 0o755) == 0)
      try folder.write("data/tasks.json", [1], mode: 0o600)
      #expect(symlink("data/tasks.json", folder.path("tasks.json")) == 0)
      let faults = FaultInjectingFileSystem()
      let outcome = try AtomicFile.save(bytes: [2, 3], to: folder.path("tasks.json"), using: faults)

      #expect(try folder.status("tasks.json", followingLinks: false).st_mode & S_IFMT == S_IFLNK)
      #expect(try PosixFileSystem().readlink(folder.path("tasks.json")) == "data/tasks.json")
      #expect(try folder.read("data/tasks.json") == [2, 3])
      #expect(try folder.permissions("data/tasks.json") == 0o600)
      #expect(try folder.entries() == ["data", "tasks.json"])
      #expect(try folder.entries(in: "data") == ["tasks.json"])
      let temporary = try #require(faults.calls.first { $0.call == .open })
      #expect(temporary.path.contains("/data/.tasks.json.recsh-"), "the temporary file is beside the target")
      #expect(try FileIdentity.current(at: folder.path("tasks.json"), using: faults) == outcome.identity)
    }
  }

  @Test func aChainOfLinksIsFollowedToTheEnd() throws {
    try TestDirectory.with { folder throws in
      try folder.write("real.json", [1])
      #expect(symlink("real.json", folder.path("middle.json")) == 0)
      #expect(symlink(folder.path("middle.json"), folder.path("first.json")) == 0)
      try AtomicFile.save(bytes: [2], to: folder.path("first.json"), using: PosixFileSystem())
      #expect(try folder.read("real.json") == [2])
      #expect(try folder.status("middle.json", followingLinks: false).st_mode & S_IFMT == S_IFLNK)
      #expect(try folder.status("first.json", followingLinks: false).st_mode & S_IFMT == S_IFLNK)
    }
  }

  @Test func aLinkToNothingIsRefusedNamingItsTarget() throws {
    try TestDirectory.with { folder throws in
      #expect(symlink("gone.json", folder.path("tasks.json")) == 0)
      let path = folder.path("tasks.json")
      let error = #expect(throws: StorageError.self) {
        try AtomicFile.save(bytes: [1], to: path, using: PosixFileSystem())
      }
      #expect(error == .danglingSymbolicLink(path: path, target: "gone.json"))
      #expect(try folder.entries() == ["tasks.json"])
    }
  }

  @Test func aLinkToADirectoryIsRefused() throws {
    try TestDirectory.with { folder throws in
      #expect(mkdir(folder.path("data"), 0o755) == 0)
      #expect(symlink("data", folder.path("tasks.json")) == 0)
      #expect(throws: StorageError.notRegularFile(.save, path: folder.path("tasks.json"), kind: .directory)) {
        try AtomicFile.save(bytes: [1], to: folder.path("tasks.json"), using: PosixFileSystem())
      }
    }
  }
}
