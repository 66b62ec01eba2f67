import Glibc

/// A data file kept open since recsh read it (or wrote it), so that a save can read its
/// bytes again instead of the session keeping a copy of them beside its records.
///
/// The session's bytes never change under it: a rename or removal of the file's path
/// leaves them readable through the descriptor, and each use first checks them against
/// the hash of what was read. Another program writing the file in place changes them: the
/// check then finds them gone, and the use says so (the caller falls back on the copy in
/// the file's history, else writes the records anew). While a use runs, a fault on the
/// mapping (the file truncated) reads zeros instead of ending the process
/// (`MappingFaultGuard`), and `unchanged` reports it, and any change of the file's
/// identity, before the caller commits to what it made.
///
/// Owns the descriptor: it is closed when the last reference goes. Memory: none of the
/// file's bytes between uses; during one, the pages of the mapping not yet let go (a
/// window behind the reader, as `FileReader.scanFile` keeps).
final class HeldFile: @unchecked Sendable {
  let descriptor: FileDescriptor
  /// The file's identity and content hash when it was read.
  let identity: FileIdentity
  let hash: String
  let byteCount: Int
  fileprivate let fileSystem: any FileSystem

  /// Takes over `descriptor`, an open regular file of `byteCount` bytes that hashed to `hash`.
  init(
    _ descriptor: FileDescriptor, identity: FileIdentity, hash: String, byteCount: Int,
    using fileSystem: any FileSystem
  ) {
    (self.descriptor, self.identity, self.hash, self.byteCount) = (descriptor, identity, hash, byteCount)
    self.fileSystem = fileSystem
  }

  deinit { try? fileSystem.close(descriptor) }

  /// The file at `path` opened now, when it is still the file a save wrote (`identity`,
  /// `hash`); its bytes are checked when used. `nil` when it cannot be opened or is
  /// another file now.
  static func reopen(
    _ path: String, identity: FileIdentity, hash: String, using fileSystem: any FileSystem
  ) -> HeldFile? {
    guard let (file, status) = try? FileReader.openRegularFile(path, using: fileSystem) else { return nil }
    guard FileIdentity(status) == identity else {
      try? fileSystem.close(file)
      return nil
    }
    return HeldFile(
      file, identity: identity, hash: hash, byteCount: Int(clamping: status.size), using: fileSystem)
  }

  /// Runs `body` over the file's bytes, mapped, once they are checked to hash to `hash`
  /// (read front to back first, their pages let go behind). In `body`, `passing(offset)`
  /// lets the pages below `offset` go (read again from the file should `body` look back),
  /// and `unchanged()` says whether the bytes are still the ones checked: no fault on the
  /// mapping and the file's identity as it was. Returns `nil`, without running `body`,
  /// when the bytes are not those any more or cannot be mapped.
  func withCheckedBytes<Result, Failure: Error>(
    _ body: (
      _ bytes: UnsafeBufferPointer<UInt8>, _ passing: (Int) -> Void, _ unchanged: () -> Bool
    ) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    let outcome = withMapping { (mapping, bytes) -> Swift.Result<Result, Failure>? in
      guard readThrough(mapping) else { return nil }
      var pages = PassedPages(mapping, of: descriptor, using: fileSystem)
      return Swift.Result { () throws(Failure) in
        try body(bytes, { pages.pass($0) }, { !MappingFaultGuard.hasFaulted && self.sameIdentity() })
      }
    }
    return try outcome??.get()
  }

  /// The file's bytes, read into memory and checked against `hash` in the same pass;
  /// `nil` when they are not those any more or cannot be read. What needs the bytes whole
  /// (a merge's other side) uses this.
  func checkedCopy() -> [UInt8]? {
    let copy = withMapping { (mapping, _) -> [UInt8]? in
      var copy: [UInt8] = []
      copy.reserveCapacity(mapping.count)
      guard readThrough(mapping, { copy += $0 }), sameIdentity() else { return nil }
      return copy
    }
    return copy ?? nil
  }

  /// Reads `mapping` front to back, handing each piece to `seen` before its pages go
  /// (`PassedPages`); whether the bytes hash to `hash` and no fault hit them.
  private func readThrough(
    _ mapping: UnsafeRawBufferPointer, _ seen: (UnsafeRawBufferPointer) -> Void = { _ in }
  ) -> Bool {
    var hasher = ContentHasher()
    var pages = PassedPages(mapping, of: descriptor, using: fileSystem)
    var offset = 0
    while offset < mapping.count {
      offset = min(mapping.count, offset + PassedPages.window)
      pages.pass(offset) { piece in
        seen(piece)
        hasher.combine(piece)
      }
    }
    seen(pages.rest)
    hasher.combine(pages.rest)
    return hasher.finalize() == hash && !MappingFaultGuard.hasFaulted
  }

  /// Runs `body` over the file's bytes, mapped and guarded (`MappingFaultGuard`), as raw
  /// bytes and as `UInt8`s. `nil` when the file's identity changed or it cannot be mapped.
  private func withMapping<Result>(
    _ body: (_ mapping: UnsafeRawBufferPointer, _ bytes: UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    guard sameIdentity() else { return nil }
    guard byteCount > 0 else {
      return body(UnsafeRawBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0))
    }
    guard let mapping = try? fileSystem.map(descriptor, length: byteCount) else { return nil }
    defer { try? fileSystem.unmap(mapping, of: descriptor) }
    return MappingFaultGuard.run(over: mapping) { FileReader.asBytes(mapping) { body(mapping, $0) } }.result
  }

  /// The file mapped for a reader on another thread (the history's compression of its
  /// start records, `BaseCompression`), which checks the bytes against `hash` itself and
  /// reads them under the mapping guard; `nil` when the file is another now or cannot be
  /// mapped. Maps on the calling thread (through the file system seam, as every call).
  func mapForReading() -> HeldMapping? {
    guard sameIdentity(), byteCount > 0, let mapping = try? fileSystem.map(descriptor, length: byteCount)
    else { return nil }
    return HeldMapping(mapping, of: self)
  }

  /// Whether the file's identity (device, inode, size, modification time) is still the
  /// one read: a write in place since changes it.
  func sameIdentity() -> Bool {
    guard let status = try? fileSystem.fstat(descriptor) else { return false }
    return FileIdentity(status) == identity
  }
}

/// A held file's bytes mapped for a reader on another thread: `bytes` stay mapped until
/// `release()`, which the thread that made the mapping calls once the reader is done
/// (so the unmapping goes through the file system seam in the order of that thread's
/// calls). Never released (a log dropped with its compression unfinished), the mapping
/// is unmapped when the last reference goes, on whatever thread that is, by `munmap`
/// itself: the seam's fault injection and call log are for one thread.
final class HeldMapping: @unchecked Sendable {
  let bytes: UnsafeRawBufferPointer
  /// The file, kept open while its bytes are mapped.
  private let file: HeldFile
  private var released = false

  fileprivate init(_ bytes: UnsafeRawBufferPointer, of file: HeldFile) {
    (self.bytes, self.file) = (bytes, file)
  }

  /// Whether the file is still the one read, by its identity (`HeldFile.sameIdentity`):
  /// what the thread that made the mapping asks once the reader is done, so that bytes
  /// written in place while they were read are not taken for the ones hashed.
  func fileUnchanged() -> Bool { file.sameIdentity() }

  /// Unmaps the bytes, through the file system seam; once.
  func release() {
    guard !released else { return }
    released = true
    try? file.fileSystem.unmap(bytes, of: file.descriptor)
  }

  deinit {
    if !released { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
  }
}
