/// The system calls that go through the ``FileSystem`` seam.
///
/// A typed name, not a string, so that errors can be worded and faults injected per call
/// without matching text.
enum SystemCall: Sendable, Hashable, CaseIterable {
  case open
  case openDirectory
  case read
  case write
  case fsync
  case ftruncate
  case flock
  case fchmod
  case fchown
  case fstat
  case stat
  case lstat
  case access
  case rename
  case unlink
  case close
  case realpath
  case readlink
  case mmap
  case madvise
  case munmap
  case listDirectory
  case mkdir

  /// The C name of the call, as error messages show it (`openDirectory` is an `open`).
  var name: String {
    switch self {
    case .open, .openDirectory: "open"
    case .read: "read"
    case .write: "write"
    case .fsync: "fsync"
    case .ftruncate: "ftruncate"
    case .flock: "flock"
    case .fchmod: "fchmod"
    case .fchown: "fchown"
    case .fstat: "fstat"
    case .stat: "stat"
    case .lstat: "lstat"
    case .access: "access"
    case .rename: "rename"
    case .unlink: "unlink"
    case .close: "close"
    case .realpath: "realpath"
    case .readlink: "readlink"
    case .mmap: "mmap"
    case .madvise: "madvise"
    case .munmap: "munmap"
    case .listDirectory: "opendir"
    case .mkdir: "mkdir"
    }
  }
}
