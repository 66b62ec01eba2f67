import Glibc

/// The real ``FileSystem``: each operation is one Glibc call.
///
/// Calls interrupted by a signal (`EINTR`) are retried, except `close`, which on Linux
/// has released the descriptor whatever it returns and must never be repeated.
public struct PosixFileSystem: FileSystem, Sendable {
  public init() {}

  public func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallError) -> FileDescriptor {
    let raw = try retrying(.open, path) { Glibc.open(path, flags, mode) }
    return FileDescriptor(rawValue: raw, path: path)
  }

  public func openDirectory(_ path: String) throws(SystemCallError) -> FileDescriptor {
    let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
    let raw = try retrying(.openDirectory, path) { Glibc.open(path, flags) }
    return FileDescriptor(rawValue: raw, path: path)
  }

  public func read(_ file: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError)
    -> Int
  {
    try retrying(.read, file.path) { Glibc.read(file.rawValue, buffer.baseAddress, buffer.count) }
  }

  public func write(_ file: FileDescriptor, from buffer: UnsafeRawBufferPointer) throws(SystemCallError)
    -> Int
  {
    try retrying(.write, file.path) { Glibc.write(file.rawValue, buffer.baseAddress, buffer.count) }
  }

  public func fsync(_ file: FileDescriptor) throws(SystemCallError) {
    _ = try retrying(.fsync, file.path) { Glibc.fsync(file.rawValue) }
  }

  public func ftruncate(_ file: FileDescriptor, length: Int64) throws(SystemCallError) {
    _ = try retrying(.ftruncate, file.path) { Glibc.ftruncate(file.rawValue, off_t(length)) }
  }

  public func lockExclusively(_ file: FileDescriptor) throws(SystemCallError) {
    // An open-file-description lock (F_OFD_SETLK): owned by this open file
    // description, so closing some other descriptor of the file does not drop it.
    var request = flock()
    request.l_type = Int16(F_WRLCK)
    request.l_whence = Int16(SEEK_SET)
    let setOFDLock: Int32 = 37  // F_OFD_SETLK, hidden behind _GNU_SOURCE from Swift
    _ = try retrying(.flock, file.path) { fcntl(file.rawValue, setOFDLock, &request) }
  }

  public func fchmod(_ file: FileDescriptor, mode: mode_t) throws(SystemCallError) {
    _ = try retrying(.fchmod, file.path) { Glibc.fchmod(file.rawValue, mode) }
  }

  public func fchown(_ file: FileDescriptor, owner: uid_t?, group: gid_t?) throws(SystemCallError) {
    // -1, as the unsigned id types spell it, means "leave unchanged".
    let unchanged = UInt32.max
    _ = try retrying(.fchown, file.path) {
      Glibc.fchown(file.rawValue, owner ?? unchanged, group ?? unchanged)
    }
  }

  public func fstat(_ file: FileDescriptor) throws(SystemCallError) -> FileStatus {
    var buffer = Glibc.stat()
    _ = try retrying(.fstat, file.path) { Glibc.fstat(file.rawValue, &buffer) }
    return FileStatus(buffer)
  }

  public func stat(_ path: String) throws(SystemCallError) -> FileStatus {
    var buffer = Glibc.stat()
    _ = try retrying(.stat, path) { statFollowingLinks(path, &buffer) }
    return FileStatus(buffer)
  }

  public func lstat(_ path: String) throws(SystemCallError) -> FileStatus {
    var buffer = Glibc.stat()
    _ = try retrying(.lstat, path) { Glibc.lstat(path, &buffer) }
    return FileStatus(buffer)
  }

  public func access(_ path: String, mode: Int32) throws(SystemCallError) {
    _ = try retrying(.access, path) { Glibc.access(path, mode) }
  }

  public func rename(_ source: String, to destination: String) throws(SystemCallError) {
    _ = try retrying(.rename, source) { Glibc.rename(source, destination) }
  }

  public func unlink(_ path: String) throws(SystemCallError) {
    _ = try retrying(.unlink, path) { Glibc.unlink(path) }
  }

  public func close(_ file: FileDescriptor) throws(SystemCallError) {
    guard Glibc.close(file.rawValue) == -1 else { return }
    let code = errno
    if code != EINTR { throw SystemCallError(.close, code: code, path: file.path) }
  }

  public func realpath(_ path: String) throws(SystemCallError) -> String {
    guard let resolved = Glibc.realpath(path, nil) else {
      throw SystemCallError(.realpath, code: errno, path: path)
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  public func readlink(_ path: String) throws(SystemCallError) -> String {
    var capacity = Int(PATH_MAX)
    while true {
      var buffer = [CChar](repeating: 0, count: capacity)
      let count = try retrying(.readlink, path) { Glibc.readlink(path, &buffer, capacity) }
      if count < capacity {
        let bytes = buffer[..<count].map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
      }
      capacity *= 2
    }
  }

  public func map(_ file: FileDescriptor, length: Int) throws(SystemCallError) -> UnsafeRawBufferPointer {
    guard let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, file.rawValue, 0), address != MAP_FAILED
    else { throw SystemCallError(.mmap, code: errno, path: file.path) }
    return UnsafeRawBufferPointer(start: address, count: length)
  }

  public func dropPages(_ pages: UnsafeRawBufferPointer, of file: FileDescriptor) throws(SystemCallError) {
    _ = try retrying(.madvise, file.path) {
      madvise(UnsafeMutableRawPointer(mutating: pages.baseAddress), pages.count, MADV_DONTNEED)
    }
  }

  public func unmap(_ mapping: UnsafeRawBufferPointer, of file: FileDescriptor) throws(SystemCallError) {
    _ = try retrying(.munmap, file.path) {
      munmap(UnsafeMutableRawPointer(mutating: mapping.baseAddress), mapping.count)
    }
  }

  public func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallError) {
    _ = try retrying(.mkdir, path) { Glibc.mkdir(path, mode) }
  }

  public func listDirectory(_ path: String) throws(SystemCallError) -> [String] {
    guard let directory = opendir(path) else {
      throw SystemCallError(.listDirectory, code: errno, path: path)
    }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw SystemCallError(.listDirectory, code: errno, path: path) }
        return names
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
  }

  /// Runs `body` until it succeeds or fails with something other than `EINTR`.
  private func retrying<Result: BinaryInteger>(
    _ call: SystemCall, _ path: String, _ body: () -> Result
  ) throws(SystemCallError) -> Result {
    while true {
      let result = body()
      if result != -1 { return result }
      let code = errno
      if code != EINTR { throw SystemCallError(call, code: code, path: path) }
    }
  }
}

extension FileStatus {
  fileprivate init(_ buffer: Glibc.stat) {
    self.init(
      device: UInt64(buffer.st_dev), inode: UInt64(buffer.st_ino), mode: UInt32(buffer.st_mode),
      owner: UInt32(buffer.st_uid), group: UInt32(buffer.st_gid), size: Int64(buffer.st_size),
      modificationTime: Int64(buffer.st_mtim.tv_sec) * 1_000_000_000 + Int64(buffer.st_mtim.tv_nsec))
  }
}

/// `stat(2)`, named apart from `struct stat`, which shadows it inside ``PosixFileSystem``.
private func statFollowingLinks(_ path: String, _ buffer: UnsafeMutablePointer<Glibc.stat>) -> Int32 {
  stat(path, buffer)
}
