import Foundation
import Glibc
import Testing

@testable import RecordShell

/// `HeldFile`: a file kept open since it was read gives back the bytes read, checked
/// against their hash, through a rename or removal of its path; once another program has
/// written it in place, it gives nothing, and a change while the bytes are in use is
/// reported (a truncation without ending the process).
@Suite struct HeldFileTests {
  let fileSystem = PosixFileSystem()

  /// The file at `name` scanned as a load does, kept open.
  func held(_ folder: TestDirectory, _ name: String, using fileSystem: any FileSystem) throws -> HeldFile {
    let scanned = try FileReader.scanFileKeepingIt(folder.path(name), using: fileSystem) { bytes, passed in
      passed(bytes.count)
    }
    return try #require(scanned.held, "a file with bytes is mapped and kept")
  }

  /// Overwrites `path`'s bytes through the same inode, without changing its size.
  static func overwriteInPlace(_ path: String, _ bytes: [UInt8]) throws {
    let file = Glibc.open(path, O_WRONLY)
    try #require(file >= 0)
    defer { Glibc.close(file) }
    let written = bytes.withUnsafeBytes { Glibc.pwrite(file, $0.baseAddress, $0.count, 0) }
    try #require(written == bytes.count)
  }

  @Test(arguments: [1, 4096, 3_000_001])
  func theBytesReadComeBackAfterTheirPathIsRenamedOverOrRemoved(size: Int) throws {
    try TestDirectory.with { folder throws in
      let bytes = sampleBytes(size, seed: 3)
      try folder.write("d.json", bytes)
      let file = try held(folder, "d.json", using: fileSystem)
      // Another program saves the way editors do: a new file renamed over the path.
      try folder.write("new.json", sampleBytes(size + 7, seed: 9))
      #expect(Glibc.rename(folder.path("new.json"), folder.path("d.json")) == 0)
      #expect(file.checkedCopy() == bytes)
      #expect(Glibc.unlink(folder.path("d.json")) == 0)
      var seen: [UInt8]?
      let outcome = file.withCheckedBytes { (bytes, _, unchanged) -> Bool in
        seen = Array(bytes)
        return unchanged()
      }
      #expect(outcome == true)
      #expect(seen == bytes)
    }
  }

  @Test(arguments: [1, 4096, 3_000_001])
  func anInPlaceWriteLeavesNothingToUse(size: Int) throws {
    try TestDirectory.with { folder throws in
      try folder.write("d.json", sampleBytes(size, seed: 3))
      let file = try held(folder, "d.json", using: fileSystem)
      var changed = sampleBytes(size, seed: 3)
      changed[size / 2] &+= 1
      try Self.overwriteInPlace(folder.path("d.json"), changed)
      var ran = false
      let outcome: Void? = file.withCheckedBytes { _, _, _ in ran = true }
      #expect(outcome == nil)
      #expect(!ran, "the bytes are checked before they are used")
      #expect(file.checkedCopy() == nil)
    }
  }

  @Test func aWriteWhileTheBytesAreInUseIsReported() throws {
    try TestDirectory.with { folder throws in
      let bytes = sampleBytes(100_000, seed: 4)
      try folder.write("d.json", bytes)
      let file = try held(folder, "d.json", using: fileSystem)
      let outcome = try file.withCheckedBytes { (_, _, unchanged) throws -> (before: Bool, after: Bool) in
        let before = unchanged()
        var changed = bytes
        changed[0] &+= 1
        try Self.overwriteInPlace(folder.path("d.json"), changed)
        return (before, unchanged())
      }
      #expect(outcome?.before == true)
      #expect(outcome?.after == false)
    }
  }

  @Test func aTruncationWhileTheBytesAreInUseIsReportedWithoutEndingTheProcess() throws {
    try TestDirectory.with { folder throws in
      let size = 3 * 65536
      try folder.write("d.json", sampleBytes(size, seed: 6))
      let file = try held(folder, "d.json", using: fileSystem)
      let outcome = file.withCheckedBytes { (bytes, _, unchanged) -> (last: UInt8, unchanged: Bool) in
        _ = Glibc.truncate(folder.path("d.json"), 0)
        // Past the file's new end: a fault, read as zeros.
        return (bytes[bytes.count - 1], unchanged())
      }
      #expect(outcome?.last == 0)
      #expect(outcome?.unchanged == false)
    }
  }

  /// The pages passed are let go as a save goes (`passing`), and once the file cannot be
  /// mapped any more its bytes are not used.
  @Test func passedPagesAreLetGoAndAFailedMappingUsesNothing() throws {
    try TestDirectory.with { folder throws in
      let bytes = sampleBytes(3_000_000, seed: 8)
      try folder.write("d.json", bytes)
      let faults = FaultInjectingFileSystem()
      let file = try held(folder, "d.json", using: faults)
      let scanCalls = faults.calls.count
      let sum = file.withCheckedBytes { (bytes, passing, _) -> Int in
        var sum = 0
        for start in stride(from: 0, to: bytes.count, by: 100_000) {
          sum &+= Int(bytes[start])
          passing(start)
        }
        return sum
      }
      #expect(sum == stride(from: 0, to: bytes.count, by: 100_000).reduce(0) { $0 &+ Int(bytes[$1]) })
      let madvised = faults.calls[scanCalls...].filter { $0.call == .madvise }.count
      // About every 256 KiB, once in the check of the hash and once as the body passes.
      #expect(madvised >= 2 * (bytes.count / (1 << 18)) - 2, "\(madvised) pages let go")
      faults.fault = .from(faults.callCount + 1, code: ENOMEM, sparing: [.fstat, .madvise, .munmap, .close])
      #expect(file.checkedCopy() == nil)
      #expect(faults.calls.last?.call == .mmap)
    }
  }

  /// The history's start records compressed from a held file where it is, on a thread of
  /// its own: the file's bytes when they are still the ones read, nothing once another
  /// program has written the file in place; the mapping is let go once waited for.
  @Test(arguments: [false, true])
  func theStartRecordsAreCompressedFromTheFileOrAreGone(_ changed: Bool) throws {
    try TestDirectory.with { folder throws in
      let bytes = sampleBytes(1_000_000, seed: 2)
      try folder.write("d.json", bytes)
      let faults = FaultInjectingFileSystem()
      let file = try held(folder, "d.json", using: faults)
      let mapped = try #require(file.mapForReading())
      if changed {
        var other = bytes
        other[500_000] &+= 1
        try Self.overwriteInPlace(folder.path("d.json"), other)
      }
      let compression = BaseCompression(mapped: mapped, hash: file.hash)
      let result = compression.wait()
      #expect(faults.calls.last?.call == .munmap, "let go on the waiting thread")
      if changed {
        #expect(result == nil)
      } else {
        let (frame, compressed) = try #require(result)
        #expect(compressed)
        #expect(try Zstd.decompress(frame[...]) == bytes)
      }
    }
  }
}
