import Glibc

/// Reads a whole data file through the ``FileSystem`` seam, with the identity it had.
public enum FileReader {
  /// The bytes of the regular file at `path` and its identity, taken with `fstat` on the
  /// same descriptor before reading, so the identity belongs to the file the bytes came
  /// from. Should the file change while being read, a later changed-on-disk check sees it.
  ///
  /// Throws ``StorageError/notFound(path:)`` when nothing is there, so the shell can start
  /// an empty document, and refuses directories, pipes and devices.
  public static func readFile(_ path: String, using fileSystem: some FileSystem) throws(StorageError)
    -> (bytes: [UInt8], identity: FileIdentity)
  {
    let (file, status) = try openRegularFile(path, using: fileSystem)
    // A descriptor opened for reading holds no unwritten data: its close cannot lose any.
    defer { try? fileSystem.close(file) }
    let bytes = try StorageError.wrapping(.read, path) { () throws(SystemCallError) in
      try readAll(file, expectedSize: Int(clamping: status.size), using: fileSystem)
    }
    return (bytes, FileIdentity(status))
  }

  /// Opens the file at `path` for reading and takes its status, refusing anything but a
  /// regular file; the caller closes the descriptor.
  static func openRegularFile(_ path: String, using fileSystem: some FileSystem)
    throws(StorageError) -> (FileDescriptor, FileStatus)
  {
    let file: FileDescriptor
    do throws(SystemCallError) {
      // O_NONBLOCK: opening a named pipe must not hang; the fstat below then refuses it.
      file = try fileSystem.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK, mode: 0)
    } catch let error where error.code == ENOENT {
      throw .notFound(path: path)
    } catch {
      throw .failed(.read, path: path, cause: error)
    }
    let status: FileStatus
    do throws(SystemCallError) {
      status = try fileSystem.fstat(file)
    } catch {
      try? fileSystem.close(file)
      throw .failed(.read, path: path, cause: error)
    }
    guard status.kind == .regularFile else {
      try? fileSystem.close(file)
      throw .notRegularFile(.read, path: path, kind: status.kind)
    }
    return (file, status)
  }

  /// Reads until end of file, going on after short reads and past `expectedSize`.
  private static func readAll(
    _ file: FileDescriptor, expectedSize: Int, using fileSystem: some FileSystem
  ) throws(SystemCallError) -> [UInt8] {
    // One byte more than expected, so that the read that sees end of file needs no growth.
    var bytes = [UInt8](repeating: 0, count: expectedSize + 1)
    var count = 0
    while true {
      if count == bytes.count {
        bytes.append(contentsOf: repeatElement(0, count: max(count, 4096)))
      }
      let filled = count
      let result: Result<Int, SystemCallError> = bytes.withUnsafeMutableBytes { buffer in
        do throws(SystemCallError) {
          return .success(
            try fileSystem.read(file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])))
        } catch {
          return .failure(error)
        }
      }
      let read = try result.get()
      if read == 0 { break }
      count += read
    }
    bytes.removeSubrange(count...)
    return bytes
  }

  /// Reads the regular file at `path` for `body`, which goes through its bytes once,
  /// front to back, calling `passed` with how far it has got; returns what `body`
  /// returns, the file's identity (as `readFile` takes it) and the `ContentHash` of the
  /// bytes.
  ///
  /// The file is mapped rather than read, and the pages `body` has passed are hashed
  /// and dropped as it goes, so that loading a big file does not hold all of it in
  /// memory beside the records made from it (what that saves: docs/PERFORMANCE.md).
  /// Memory: at most about 256 KiB of the file's pages beyond what `body` holds. A dropped page is read again from the file if
  /// `body` looks back (to place an error). Where the file cannot be mapped, it is read
  /// whole as `readFile` does.
  ///
  /// A file that another program changes while it is read — truncated under the mapping,
  /// or written (its size, modification or change time differ after the scan) — throws
  /// ``StorageError/changedWhileReading(path:)``: what `body` made of it is dropped, and
  /// a truncation never ends the process (`MappingFaultGuard`).
  ///
  /// `progress`, when given, hears `.began(.opening, …)` with the file's size, then how
  /// far the scan got each time pages are dropped (every 256 KiB), then `.ended`.
  public static func scanFile<Output>(
    _ path: String, using fileSystem: some FileSystem, progress: ProgressHandler? = nil,
    _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ passed: (Int) -> Void) -> Output
  ) throws(StorageError) -> (result: Output, identity: FileIdentity, hash: String) {
    let scanned = try scanWhole(path, keeping: false, using: fileSystem, progress: progress, body)
    return (scanned.value, scanned.identity, scanned.hash)
  }

  /// `scanFile`, keeping the file open afterwards when it could be mapped (`held`; `nil`
  /// when it was read whole, or has no bytes): what an image that does not copy the file
  /// reads its bytes from again (`HeldFile`).
  static func scanFileKeepingIt<Output>(
    _ path: String, using fileSystem: any FileSystem, progress: ProgressHandler? = nil,
    _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ passed: (Int) -> Void) -> Output
  ) throws(StorageError) -> (result: Output, identity: FileIdentity, hash: String, held: HeldFile?) {
    let scanned = try scanWhole(path, keeping: true, using: fileSystem, progress: progress, body)
    return (scanned.value, scanned.identity, scanned.hash, scanned.held)
  }

  /// A file scanned whole: what `body` made of it, its identity, its hash, and the file
  /// kept open when it was asked for and could be mapped.
  struct Scanned<Value> {
    let value: Value
    let identity: FileIdentity
    let hash: String
    let held: HeldFile?
  }

  /// `scan` of a `body` that never refuses the file.
  private static func scanWhole<Output>(
    _ path: String, keeping: Bool, using fileSystem: any FileSystem, progress: ProgressHandler?,
    _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ passed: (Int) -> Void) -> Output
  ) throws(StorageError) -> Scanned<Output> {
    try scan(path, keeping: keeping, using: fileSystem, progress: progress) {
      bytes, passed -> Result<Output, Never> in
      .success(withoutActuallyEscaping(passed) { passed in body(bytes, passed) })
    }.get()
  }

  /// `scanFileKeepingIt` for a `body` that may refuse the file (a load as a kind the
  /// records do not fit): when it returns a failure, the bytes after those it passed are
  /// neither read nor hashed and no file is kept; the failure comes back once the file is
  /// known not to have changed while it was read (else ``StorageError/changedWhileReading(path:)``,
  /// as for any scan). An inferred kind's open first tries each shipped kind, which most
  /// files refuse at their first record: hashing the rest of the file for each was two
  /// passes over all of it.
  static func scanFileKeepingIt<Value, Failure: Error>(
    _ path: String, using fileSystem: any FileSystem, progress: ProgressHandler? = nil,
    refusable body: (_ bytes: UnsafeBufferPointer<UInt8>, _ passed: (Int) -> Void) -> Result<Value, Failure>
  ) throws(StorageError) -> Result<Scanned<Value>, Failure> {
    try scan(path, keeping: true, using: fileSystem, progress: progress, body)
  }

  private static func scan<Value, Failure: Error>(
    _ path: String, keeping: Bool, using fileSystem: any FileSystem, progress: ProgressHandler?,
    _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ passed: (Int) -> Void) -> Result<Value, Failure>
  ) throws(StorageError) -> Result<Scanned<Value>, Failure> {
    let (file, status) = try openRegularFile(path, using: fileSystem)
    var kept = false
    defer { if !kept { try? fileSystem.close(file) } }
    let size = Int(clamping: status.size)
    progress?(.began(.opening, path: path, totalBytes: size))
    defer { progress?(.ended) }
    let mapping: UnsafeRawBufferPointer
    do throws(SystemCallError) {
      guard size > 0 else { throw SystemCallError(.mmap, code: EINVAL, path: path) }
      mapping = try fileSystem.map(file, length: size)
    } catch {
      let bytes = try StorageError.wrapping(.read, path) { () throws(SystemCallError) in
        try readAll(file, expectedSize: size, using: fileSystem)
      }
      return bytes.withUnsafeBufferPointer { body($0, { _ in }) }.map {
        Scanned(value: $0, identity: FileIdentity(status), hash: ContentHash.of(bytes), held: nil)
      }
    }
    defer { try? fileSystem.unmap(mapping, of: file) }
    var hasher = ContentHasher()
    var pages = PassedPages(mapping, of: file, using: fileSystem)
    let (result, faulted) = MappingFaultGuard.run(over: mapping) {
      let result = asBytes(mapping) { bytes in
        body(bytes) { offset in
          if pages.pass(offset, { hasher.combine($0) }) { progress?(.advanced(bytes: pages.done)) }
        }
      }
      if case .success = result { hasher.combine(pages.rest) }
      return result
    }
    let after = try StorageError.wrapping(.read, path) { () throws(SystemCallError) in
      try fileSystem.fstat(file)
    }
    guard !faulted, FileIdentity(after) == FileIdentity(status) else {
      throw .changedWhileReading(path: path)
    }
    return result.map { value in
      let hash = hasher.finalize()
      var held: HeldFile?
      if keeping {
        kept = true
        held = HeldFile(file, identity: FileIdentity(status), hash: hash, byteCount: size, using: fileSystem)
      }
      return Scanned(value: value, identity: FileIdentity(status), hash: hash, held: held)
    }
  }

  /// Runs `body` with a file's mapped bytes read as `UInt8`: the standard library's scoped
  /// rebinding, for the call only, not a binding that outlives it. The one place a mapping
  /// is read as bytes (a scan, and a held file's later uses, `HeldFile`).
  static func asBytes<Output>(
    _ mapping: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Output
  )
    -> Output
  {
    mapping.withMemoryRebound(to: UInt8.self, body)
  }
}
