import Glibc
import Testing

@testable import RecordShell

@Suite struct StorageErrorTests {
  static let disk = SystemCallError(.write, code: ENOSPC, path: ".tasks.json.recsh-abcdef.tmp")

  @Test(arguments: [
    (StorageError.notFound(path: "tasks.json"), "cannot read \"tasks.json\": no such file"),
    (
      .failed(.save, path: "tasks.json", cause: disk),
      "cannot save \"tasks.json\": ENOSPC: no space left on device (write)"
    ),
    (
      .failed(.read, path: "t.json", cause: SystemCallError(.open, code: EACCES, path: "t.json")),
      "cannot read \"t.json\": EACCES: permission denied (open)"
    ),
    (
      .failed(.check, path: "t.json", cause: SystemCallError(.stat, code: EIO, path: "t.json")),
      "cannot check whether \"t.json\" changed on disk: EIO: input/output error (stat)"
    ),
    (
      .notRegularFile(.save, path: "data", kind: .directory),
      "cannot save \"data\": it is a directory, not a regular file"
    ),
    (
      .notRegularFile(.read, path: "/dev/null", kind: .device),
      "cannot read \"/dev/null\": it is a device, not a regular file"
    ),
    (
      .temporaryFileNotCreated(
        path: "t.json", folder: ".", cause: SystemCallError(.open, code: EROFS, path: "./.t")),
      "cannot save \"t.json\": EROFS: read-only file system (creating a temporary file in \".\")"
    ),
    (
      .danglingSymbolicLink(path: "t.json", target: "gone.json"),
      "cannot save \"t.json\": it is a symbolic link to \"gone.json\", which does not exist"
    ),
  ])
  func eachErrorIsWordedWithItsPathAndCause(error: StorageError, message: String) {
    #expect(error.description == message)
  }

  @Test func theCauseIsAvailableForTheCasesThatHaveOne() {
    #expect(StorageError.failed(.save, path: "t", cause: Self.disk).cause == Self.disk)
    #expect(StorageError.notFound(path: "t").cause == nil)
  }
}
