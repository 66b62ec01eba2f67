import Glibc
import Testing

@testable import RecordShell

@Suite struct SystemCallErrorTests {
  @Test(arguments: [
    (ENOSPC, "ENOSPC: no space left on device"),
    (EACCES, "EACCES: permission denied"),
    (EPERM, "EPERM: operation not permitted"),
    (EROFS, "EROFS: read-only file system"),
    (EEXIST, "EEXIST: file exists"),
    (ENOENT, "ENOENT: no such file or directory"),
    (EIO, "EIO: input/output error"),
    (EDQUOT, "EDQUOT: disk quota exceeded"),
    (EISDIR, "EISDIR: is a directory"),
    (ENOTDIR, "ENOTDIR: not a directory"),
    (ELOOP, "ELOOP: too many levels of symbolic links"),
    (EXDEV, "EXDEV: invalid cross-device link"),
    (EBADF, "EBADF: bad file descriptor"),
    (EINTR, "EINTR: interrupted system call"),
    (ENAMETOOLONG, "ENAMETOOLONG: file name too long"),
    (EMFILE, "EMFILE: too many open files"),
  ])
  func commonErrnosHaveTheirNameAndAMeaning(code: Int32, summary: String) {
    #expect(SystemCallError(.write, code: code, path: "f").summary == summary)
  }

  @Test func otherErrnosFallBackToTheCLibrarysText() {
    #expect(SystemCallError(.write, code: ECHILD, path: "f").summary == "errno \(ECHILD): no child processes")
  }

  @Test func theDescriptionNamesCallPathAndCause() {
    let error = SystemCallError(.rename, code: EXDEV, path: "/a/.t.json.recsh-abcdef.tmp")
    #expect(error.description == "rename \"/a/.t.json.recsh-abcdef.tmp\": EXDEV: invalid cross-device link")
  }

  @Test func openingAFolderIsNamedOpen() {
    #expect(SystemCall.openDirectory.name == "open")
  }

  @Test func thePosixFileSystemReportsCallErrnoAndPath() throws {
    try TestDirectory.with { folder throws in
      let fileSystem = PosixFileSystem()
      let missing = folder.path("missing")
      #expect(throws: SystemCallError(.open, code: ENOENT, path: missing)) {
        try fileSystem.open(missing, flags: O_RDONLY, mode: 0)
      }
      #expect(throws: SystemCallError(.lstat, code: ENOENT, path: missing)) { try fileSystem.lstat(missing) }
      #expect(throws: SystemCallError(.readlink, code: ENOENT, path: missing)) {
        try fileSystem.readlink(missing)
      }
      let file = try folder.write("f", [])
      #expect(throws: SystemCallError(.openDirectory, code: ENOTDIR, path: file)) {
        try fileSystem.openDirectory(file)
      }
    }
  }

  @Test func thePosixFileSystemReadsLinksAndResolvesPaths() throws {
    try TestDirectory.with { folder throws in
      let fileSystem = PosixFileSystem()
      try folder.write("real", [])
      #expect(symlink("real", folder.path("link")) == 0)
      #expect(try fileSystem.readlink(folder.path("link")) == "real")
      #expect(try fileSystem.realpath(folder.path("link")) == fileSystem.realpath(folder.path("real")))
      #expect(try fileSystem.lstat(folder.path("link")).kind == .symbolicLink)
      #expect(try fileSystem.stat(folder.path("link")).kind == .regularFile)
    }
  }
}
