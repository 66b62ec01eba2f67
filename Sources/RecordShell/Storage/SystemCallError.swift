import Glibc

/// A failed system call: which call, on which path, and the `errno` it set.
///
/// Carries the raw errno rather than a message so that callers can decide by value
/// (an `ENOENT` on load starts an empty document, an `EPERM` from `fchown` is ignored)
/// and tests can compare errors exactly.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
  let call: SystemCall
  let code: Int32
  let path: String

  init(_ call: SystemCall, code: Int32, path: String) {
    self.call = call
    self.code = code
    self.path = path
  }

  /// The symbolic errno name, e.g. `ENOSPC`; `errno 123` for one the table lacks.
  var codeName: String {
    Self.knownCodes[code]?.name ?? "errno \(code)"
  }

  /// What the errno means, lowercase, e.g. `no space left on device`.
  var explanation: String {
    if code == EFBIG, let limit = Self.fileSizeLimit {
      return "file too large for this process's file size limit (\(limit) bytes)"
    }
    if let known = Self.knownCodes[code] { return known.explanation }
    guard let text = strerror(code) else { return "unknown error" }
    let message = String(cString: text)
    return message.prefix(1).lowercased() + message.dropFirst()
  }

  /// The cause without the call, e.g. `ENOSPC: no space left on device`.
  var summary: String { "\(codeName): \(explanation)" }

  /// The full detail, e.g. `write ".tasks.json.recsh-Ab12Cd.tmp": ENOSPC: no space left on device`.
  public var description: String { "\(call.name) \"\(path)\": \(summary)" }

  /// The file size limit of this process (`ulimit -f`, `RLIMIT_FSIZE`) in bytes; `nil`
  /// when there is none. An `EFBIG` under such a limit says so, since that is the usual cause.
  static var fileSizeLimit: UInt64? {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max
    else { return nil }
    return UInt64(limit.rlim_cur)
  }

  /// Our own wording of the errnos a save or load meets in practice, so that messages
  /// are lowercase, stable across C libraries and name the errno users search for.
  private static let knownCodes: [Int32: (name: String, explanation: String)] = [
    ENOSPC: ("ENOSPC", "no space left on device"),
    EACCES: ("EACCES", "permission denied"),
    EPERM: ("EPERM", "operation not permitted"),
    EROFS: ("EROFS", "read-only file system"),
    EEXIST: ("EEXIST", "file exists"),
    ENOENT: ("ENOENT", "no such file or directory"),
    EIO: ("EIO", "input/output error"),
    EDQUOT: ("EDQUOT", "disk quota exceeded"),
    EISDIR: ("EISDIR", "is a directory"),
    ENOTDIR: ("ENOTDIR", "not a directory"),
    ELOOP: ("ELOOP", "too many levels of symbolic links"),
    EXDEV: ("EXDEV", "invalid cross-device link"),
    EBADF: ("EBADF", "bad file descriptor"),
    EINTR: ("EINTR", "interrupted system call"),
    ENAMETOOLONG: ("ENAMETOOLONG", "file name too long"),
    EMFILE: ("EMFILE", "too many open files"),
    ENFILE: ("ENFILE", "too many open files in system"),
    EBUSY: ("EBUSY", "device or resource busy"),
    EINVAL: ("EINVAL", "invalid argument"),
    EFBIG: ("EFBIG", "file too large"),
    ETXTBSY: ("ETXTBSY", "text file busy"),
  ]
}
