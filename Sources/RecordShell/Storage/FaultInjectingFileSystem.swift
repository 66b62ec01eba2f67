import Glibc

/// A ``FileSystem`` for tests that forwards to another one, numbers and records every
/// call, and can make chosen calls fail.
///
/// It lives in Sources (internal, never constructed by the shell) rather than in one test
/// target so that the tests of every storage feature built on the seam — saving, loading,
/// the journal, recovery — and of the session reuse the same fault model. A class, because
/// the counter and the log are shared state that the code under test mutates.
final class FaultInjectingFileSystem: FileSystem {
  /// One call as it was made: which call and on which path (the source, for `rename`).
  struct Call: Equatable, CustomStringConvertible {
    let call: SystemCall
    let path: String
    var description: String { "\(call.name) \(path)" }
  }

  /// Which calls fail, counted from 1 over every call made through this file system.
  enum Fault: Equatable {
    /// Only call number `number` fails.
    case once(at: Int, code: Int32)
    /// Call number `number` and every later call fail, except calls of the `sparing` kinds
    /// (e.g. `unlink`, which still works on a full disk).
    case from(Int, code: Int32, sparing: Set<SystemCall> = [])
  }

  private let base: any FileSystem
  /// The fault to inject; `nil` forwards every call.
  var fault: Fault?
  /// When set, every `read` and `write` transfers at most this many bytes, to exercise the
  /// handling of short reads and writes.
  var maximumTransfer: Int?
  /// When false, `fsync` is counted and may fail as planned but does not reach the disk: a
  /// model test reopens files thousands of times, and what it checks does not depend on
  /// the disk's cache being flushed.
  var flushes = true
  /// Owners `stat` reports for some paths instead of the real ones: a folder "of another
  /// user", which a test cannot make without root.
  var owners: [String: UInt32] = [:]
  private(set) var calls: [Call] = []
  /// Each file's size at its last successful `fsync`: what a power cut would leave
  /// of a file that is only appended to (the journal).
  private(set) var syncedLengths: [String: Int64] = [:]
  /// Opens of paths ending in this name fail with the code (a read-only folder, say).
  private var failingOpens: (suffix: String, code: Int32)?

  func failOpens(of suffix: String, code: Int32) {
    failingOpens = (suffix, code)
  }

  init(wrapping base: any FileSystem = PosixFileSystem(), fault: Fault? = nil) {
    self.base = base
    self.fault = fault
  }

  /// How many calls were made so far; the next call has number `callCount + 1`.
  var callCount: Int { calls.count }

  /// Records the call and throws if the fault plan says this one fails.
  private func enter(_ call: SystemCall, _ path: String) throws(SystemCallError) {
    calls.append(Call(call: call, path: path))
    let number = calls.count
    switch fault {
    case .once(let at, let code) where number == at:
      throw SystemCallError(call, code: code, path: path)
    case .from(let first, let code, let sparing) where number >= first && !sparing.contains(call):
      throw SystemCallError(call, code: code, path: path)
    default:
      return
    }
  }

  private func limited(_ count: Int) -> Int { min(count, maximumTransfer ?? count) }

  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallError) -> FileDescriptor {
    if let failingOpens, path.hasSuffix(failingOpens.suffix) {
      throw SystemCallError(.open, code: failingOpens.code, path: path)
    }
    try enter(.open, path)
    return try base.open(path, flags: flags, mode: mode)
  }

  func openDirectory(_ path: String) throws(SystemCallError) -> FileDescriptor {
    try enter(.openDirectory, path)
    return try base.openDirectory(path)
  }

  func read(_ file: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int
  {
    try enter(.read, file.path)
    let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[..<limited(buffer.count)])
    return try base.read(file, into: slice)
  }

  func write(_ file: FileDescriptor, from buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
    try enter(.write, file.path)
    return try base.write(file, from: UnsafeRawBufferPointer(rebasing: buffer[..<limited(buffer.count)]))
  }

  func fsync(_ file: FileDescriptor) throws(SystemCallError) {
    try enter(.fsync, file.path)
    if flushes { try base.fsync(file) }
    if let status = try? base.fstat(file) { syncedLengths[file.path] = status.size }
  }

  func ftruncate(_ file: FileDescriptor, length: Int64) throws(SystemCallError) {
    try enter(.ftruncate, file.path)
    try base.ftruncate(file, length: length)
  }

  func lockExclusively(_ file: FileDescriptor) throws(SystemCallError) {
    try enter(.flock, file.path)
    try base.lockExclusively(file)
  }

  func fchmod(_ file: FileDescriptor, mode: mode_t) throws(SystemCallError) {
    try enter(.fchmod, file.path)
    try base.fchmod(file, mode: mode)
  }

  func fchown(_ file: FileDescriptor, owner: uid_t?, group: gid_t?) throws(SystemCallError) {
    try enter(.fchown, file.path)
    try base.fchown(file, owner: owner, group: group)
  }

  func fstat(_ file: FileDescriptor) throws(SystemCallError) -> FileStatus {
    try enter(.fstat, file.path)
    return try base.fstat(file)
  }

  func stat(_ path: String) throws(SystemCallError) -> FileStatus {
    try enter(.stat, path)
    var status = try base.stat(path)
    if let owner = owners[path] { status.owner = owner }
    return status
  }

  func lstat(_ path: String) throws(SystemCallError) -> FileStatus {
    try enter(.lstat, path)
    return try base.lstat(path)
  }

  func access(_ path: String, mode: Int32) throws(SystemCallError) {
    try enter(.access, path)
    try base.access(path, mode: mode)
  }

  func rename(_ source: String, to destination: String) throws(SystemCallError) {
    try enter(.rename, source)
    try base.rename(source, to: destination)
  }

  func unlink(_ path: String) throws(SystemCallError) {
    try enter(.unlink, path)
    try base.unlink(path)
  }

  /// An injected failure still closes the real descriptor, as `close(2)` does on Linux, so
  /// that fault-injection runs do not leak descriptors.
  func close(_ file: FileDescriptor) throws(SystemCallError) {
    do {
      try enter(.close, file.path)
    } catch {
      try? base.close(file)
      throw error
    }
    try base.close(file)
  }

  func realpath(_ path: String) throws(SystemCallError) -> String {
    try enter(.realpath, path)
    return try base.realpath(path)
  }

  func readlink(_ path: String) throws(SystemCallError) -> String {
    try enter(.readlink, path)
    return try base.readlink(path)
  }

  func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallError) {
    try enter(.mkdir, path)
    try base.makeDirectory(path, mode: mode)
  }

  func listDirectory(_ path: String) throws(SystemCallError) -> [String] {
    try enter(.listDirectory, path)
    return try base.listDirectory(path)
  }

  func map(_ file: FileDescriptor, length: Int) throws(SystemCallError) -> UnsafeRawBufferPointer {
    try enter(.mmap, file.path)
    return try base.map(file, length: length)
  }

  func dropPages(_ pages: UnsafeRawBufferPointer, of file: FileDescriptor) throws(SystemCallError) {
    try enter(.madvise, file.path)
    try base.dropPages(pages, of: file)
  }

  /// An injected failure still unmaps, so that fault-injection runs do not leak mappings.
  func unmap(_ mapping: UnsafeRawBufferPointer, of file: FileDescriptor) throws(SystemCallError) {
    do {
      try enter(.munmap, file.path)
    } catch {
      try? base.unmap(mapping, of: file)
      throw error
    }
    try base.unmap(mapping, of: file)
  }
}
