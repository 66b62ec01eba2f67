import Glibc
import Testing

@testable import RecordShell

@Suite struct FaultInjectingFileSystemTests {
  @Test func everyCallIsRecordedInOrder() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("f", [1])
      let faults = FaultInjectingFileSystem()
      _ = try faults.lstat(path)
      try faults.access(path, mode: R_OK)
      #expect(faults.calls == [.init(call: .lstat, path: path), .init(call: .access, path: path)])
      #expect(faults.callCount == 2)
    }
  }

  @Test func aOnceFaultFailsOnlyThatCall() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("f", [1])
      let faults = FaultInjectingFileSystem(fault: .once(at: 2, code: EIO))
      _ = try faults.stat(path)
      #expect(throws: SystemCallError(.stat, code: EIO, path: path)) { try faults.stat(path) }
      _ = try faults.stat(path)
    }
  }

  @Test func aFromFaultFailsEveryLaterCallButTheSparedOnes() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("f", [1])
      let faults = FaultInjectingFileSystem(fault: .from(2, code: ENOSPC, sparing: [.lstat]))
      _ = try faults.stat(path)
      #expect(throws: SystemCallError(.stat, code: ENOSPC, path: path)) { try faults.stat(path) }
      #expect(throws: SystemCallError(.stat, code: ENOSPC, path: path)) { try faults.stat(path) }
      _ = try faults.lstat(path)
    }
  }

  @Test func anInjectedCloseFailureStillClosesTheDescriptor() throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("f", [1])
      let faults = FaultInjectingFileSystem(fault: .once(at: 2, code: EIO))
      let file = try faults.open(path, flags: O_RDONLY, mode: 0)
      var opened = stat()
      #expect(fstat(file.rawValue, &opened) == 0)
      #expect(throws: SystemCallError(.close, code: EIO, path: path)) { try faults.close(file) }
      // Tests run in parallel: another test may already have been given the
      // same number, so the check is that it no longer refers to this file.
      var now = stat()
      let closed =
        fstat(file.rawValue, &now) == -1 || now.st_dev != opened.st_dev || now.st_ino != opened.st_ino
      #expect(closed)
    }
  }
}
