import RecordKit
import RecordShell

/// Why `recsh-bench` stopped: bad arguments, or a file it could not read, decode or save.
enum BenchError: Error, CustomStringConvertible {
  case usage(String)
  case storage(StorageError)
  case file(path: String, RecordFileError)
  /// A session could not open the file, or a command failed.
  case session(String)

  var description: String {
    switch self {
    case .usage(let message): "\(message)\n\(BenchCommand.usage)"
    case .storage(let error): error.description
    case .file(let path, let error): "\(path):\(error.position): error: \(error)"
    case .session(let message): message
    }
  }

  /// Whether the error is about the arguments (exit 2) rather than the work (exit 1).
  var isUsage: Bool {
    if case .usage = self { true } else { false }
  }
}
