import Glibc
import Testing

@testable import RecordShell

/// `scanFile`: a file mapped and gone through once, its passed pages dropped as it goes.
extension FileReaderTests {
  /// Goes through `bytes` as a decoder would, reporting progress every `step` bytes, and
  /// returns a copy of them, the first byte read again at the end (after it was dropped).
  static func readThrough(_ bytes: UnsafeBufferPointer<UInt8>, step: Int, passed: (Int) -> Void) -> [UInt8] {
    var copy: [UInt8] = []
    copy.reserveCapacity(bytes.count)
    for start in stride(from: 0, to: bytes.count, by: step) {
      copy += bytes[start..<min(start + step, bytes.count)]
      passed(min(start + step, bytes.count))
    }
    if let first = bytes.first { copy.append(first) }
    return copy
  }

  @Test(arguments: [0, 1, 4096, 4097, 3_000_001])
  func aScannedFileIsSeenWholeWithItsIdentityAndHash(size: Int) throws {
    try TestDirectory.with { folder throws in
      let bytes = sampleBytes(size, seed: 5)
      let path = try folder.write("tasks.json", bytes)
      let faults = FaultInjectingFileSystem()
      let scanned = try FileReader.scanFile(path, using: faults) {
        Self.readThrough($0, step: 5000, passed: $1)
      }
      #expect(scanned.result == bytes + bytes.prefix(1))
      #expect(scanned.hash == ContentHash.of(bytes))
      #expect(try FileIdentity.current(at: path, using: fileSystem) == scanned.identity)
      let calls = faults.calls.map(\.call)
      #expect(calls.first == .open && calls.last == .close)
      #expect(calls.contains(.mmap) == (size > 0))
      #expect(calls.contains(.madvise) == (size > 1 << 20), "pages passed are dropped")
      #expect(calls.contains(.munmap) == (size > 0))
    }
  }

  @Test(arguments: [EACCES, EIO, ENODEV])
  func aFailureAtAnyCallOfAScanIsReportedOrWorkedAround(code: Int32) throws {
    try TestDirectory.with { folder throws in
      let bytes = sampleBytes(3_000_000, seed: 7)
      let path = try folder.write("tasks.json", bytes)
      let clean = FaultInjectingFileSystem()
      _ = try FileReader.scanFile(path, using: clean) { Self.readThrough($0, step: 4096, passed: $1) }
      for (index, call) in clean.calls.enumerated() {
        let context = Comment(rawValue: "call \(index + 1) (\(call.call.name)) fails with errno \(code)")
        let faults = FaultInjectingFileSystem(fault: .once(at: index + 1, code: code))
        switch call.call {
        case .open, .fstat:
          let error = #expect(throws: StorageError.self, context) {
            try FileReader.scanFile(path, using: faults) { Self.readThrough($0, step: 4096, passed: $1) }
          }
          #expect(
            error == .failed(.read, path: path, cause: SystemCallError(call.call, code: code, path: path)))
        default:
          // Mapping fails: the file is read instead; dropping pages, unmapping or
          // closing fails: nothing is lost, the bytes were seen.
          let scanned = try FileReader.scanFile(path, using: faults) {
            Self.readThrough($0, step: 4096, passed: $1)
          }
          #expect(scanned.result == bytes + bytes.prefix(1), context)
          #expect(scanned.hash == ContentHash.of(bytes), context)
          if call.call == .mmap { #expect(faults.calls.contains { $0.call == .read }, context) }
        }
        #expect(faults.calls.filter { $0.call == .close }.count == (call.call == .open ? 0 : 1), context)
      }
    }
  }

  /// Why a refusable scan's body turned its file down.
  struct Refused: Error, Equatable {
    var at: Int
  }

  /// A load that tries a kind the records do not fit: the body stops at `stop` and
  /// refuses the file, or takes it whole.
  static func tryKind(_ bytes: UnsafeBufferPointer<UInt8>, refusingAt stop: Int?, passed: (Int) -> Void)
    -> Result<[UInt8], Refused>
  {
    guard let stop else { return .success(readThrough(bytes, step: 5000, passed: passed)) }
    passed(min(stop, bytes.count))
    return .failure(Refused(at: stop))
  }

  @Test(arguments: [1, 4096, 3_000_001])
  func aRefusedScanGivesBackTheRefusalAndKeepsNoFileOpen(size: Int) throws {
    try TestDirectory.with { folder throws in
      let bytes = sampleBytes(size, seed: 11)
      let path = try folder.write("books.json", bytes)
      let faults = FaultInjectingFileSystem()
      let refused = try FileReader.scanFileKeepingIt(
        path, using: faults, refusable: { Self.tryKind($0, refusingAt: 300, passed: $1) })
      #expect(throws: Refused(at: 300)) { try refused.get() }
      let calls = faults.calls.map(\.call)
      #expect(calls.first == .open && calls.last == .close, "the file is closed, not held")
      #expect(calls.contains(.munmap))
      // The same file taken whole is hashed whole and kept open.
      let taken = try FileReader.scanFileKeepingIt(
        path, using: fileSystem, refusable: { Self.tryKind($0, refusingAt: nil, passed: $1) }
      ).get()
      #expect(taken.value == bytes + bytes.prefix(1))
      #expect(taken.hash == ContentHash.of(bytes))
      #expect(taken.identity == (try FileIdentity.current(at: path, using: fileSystem)))
      #expect(taken.held != nil)
    }
  }

  @Test(arguments: [false, true])
  func aFileWrittenWhileAScanReadsItIsReportedAsChangedEvenWhenRefused(refusing: Bool) throws {
    try TestDirectory.with { folder throws in
      let path = try folder.write("books.json", sampleBytes(100_000, seed: 13))
      let error = #expect(throws: StorageError.self) {
        try FileReader.scanFileKeepingIt(
          path, using: fileSystem,
          refusable: { bytes, passed in
            // Another program appends to the file while it is read.
            let file = Glibc.open(path, O_WRONLY | O_APPEND)
            defer { Glibc.close(file) }
            _ = Glibc.write(file, "]]", 2)
            return Self.tryKind(bytes, refusingAt: refusing ? 10 : nil, passed: passed)
          })
      }
      #expect(error == .changedWhileReading(path: path))
    }
  }

  @Test func aScanRefusesWhatReadFileRefuses() throws {
    try TestDirectory.with { folder throws in
      #expect(throws: StorageError.notFound(path: folder.path("missing.json"))) {
        try FileReader.scanFile(folder.path("missing.json"), using: fileSystem) { _, _ in 0 }
      }
      #expect(throws: StorageError.notRegularFile(.read, path: folder.path, kind: .directory)) {
        try FileReader.scanFile(folder.path, using: fileSystem) { _, _ in 0 }
      }
    }
  }
}
