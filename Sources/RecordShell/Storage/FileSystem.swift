import Glibc

/// The seam through which every file-system call of saving and loading goes.
///
/// The operations are raw and POSIX-shaped on purpose: the code above them decides
/// the order of calls (that order *is* the atomic-save protocol), and a test can swap
/// in a ``FaultInjectingFileSystem`` to fail any single call and check that nothing is
/// lost. Each operation throws a ``SystemCallError`` naming the call, errno and path.
public protocol FileSystem {
  /// `open(2)`; `mode` matters only with `O_CREAT`.
  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallError) -> FileDescriptor
  /// Opens a folder read-only, only to `fsync` it after a rename.
  func openDirectory(_ path: String) throws(SystemCallError) -> FileDescriptor
  /// `read(2)`: may return fewer bytes than asked; 0 at end of file.
  func read(_ file: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError)
    -> Int
  /// `write(2)`: may write fewer bytes than given.
  func write(_ file: FileDescriptor, from buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int
  func fsync(_ file: FileDescriptor) throws(SystemCallError)
  /// `ftruncate(2)`: the journal is reset in place, so its lock stays on one file.
  func ftruncate(_ file: FileDescriptor, length: Int64) throws(SystemCallError)
  /// An exclusive, non-blocking lock on the open file description (Linux
  /// `F_OFD_SETLK`): unlike classic POSIX `fcntl` locks, no `close` of another
  /// descriptor of the file drops it. Throws `EAGAIN` when another process holds it.
  func lockExclusively(_ file: FileDescriptor) throws(SystemCallError)
  func fchmod(_ file: FileDescriptor, mode: mode_t) throws(SystemCallError)
  /// `fchown(2)`; `nil` leaves the owner or the group as it is.
  func fchown(_ file: FileDescriptor, owner: uid_t?, group: gid_t?) throws(SystemCallError)
  func fstat(_ file: FileDescriptor) throws(SystemCallError) -> FileStatus
  /// `stat(2)`: follows symbolic links.
  func stat(_ path: String) throws(SystemCallError) -> FileStatus
  /// `lstat(2)`: describes a symbolic link itself.
  func lstat(_ path: String) throws(SystemCallError) -> FileStatus
  /// `access(2)` with `R_OK`, `W_OK`…: throws when access is denied.
  func access(_ path: String, mode: Int32) throws(SystemCallError)
  func rename(_ source: String, to destination: String) throws(SystemCallError)
  func unlink(_ path: String) throws(SystemCallError)
  /// `close(2)`: the descriptor is gone afterwards even when it throws.
  func close(_ file: FileDescriptor) throws(SystemCallError)
  /// `realpath(3)`: the absolute path with every symbolic link resolved.
  func realpath(_ path: String) throws(SystemCallError) -> String
  /// `readlink(2)`: the target text of a symbolic link, unresolved.
  func readlink(_ path: String) throws(SystemCallError) -> String
  /// `mmap(2)` of the first `length` bytes of a file, read-only and private; `length`
  /// must not be 0. The mapping outlives the descriptor until `unmap`.
  func map(_ file: FileDescriptor, length: Int) throws(SystemCallError) -> UnsafeRawBufferPointer
  /// `madvise(MADV_DONTNEED)` over whole pages of a mapping: drops them from memory; a
  /// mapped file's pages are read again from the file if touched later.
  func dropPages(_ pages: UnsafeRawBufferPointer, of file: FileDescriptor) throws(SystemCallError)
  /// The names in a folder (`opendir(3)`, `readdir(3)`), without `.` and `..`, in the
  /// order the file system gives them.
  func listDirectory(_ path: String) throws(SystemCallError) -> [String]
  /// `mkdir(2)` of one folder with `mode` (less the umask); throws `EEXIST` when
  /// something is already there.
  func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallError)
  /// `munmap(2)` of a mapping `map` made.
  func unmap(_ mapping: UnsafeRawBufferPointer, of file: FileDescriptor) throws(SystemCallError)
}
