/// Why a data file could not be read, saved or checked, with the context to say so.
///
/// The cases carry values, not text; ``description`` is the one place that words them,
/// lowercase, with paths in quotes as the user gave them.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was being done when a call failed.
  public enum Operation: Sendable, Equatable {
    case read, save, check
  }

  /// Nothing exists at the path: for a load, the shell starts an empty document.
  case notFound(path: String)
  /// A system call failed; for a save, the original file is untouched.
  case failed(Operation, path: String, cause: SystemCallError)
  /// The path names a directory, a device, a pipe…: never read or replaced.
  case notRegularFile(Operation, path: String, kind: FileStatus.Kind)
  /// The temporary file could not be created in the target's folder (a read-only folder,
  /// a missing one, a full disk); saving needs to create a file beside the target.
  case temporaryFileNotCreated(path: String, folder: String, cause: SystemCallError)
  /// The path is a symbolic link to a file that does not exist.
  case danglingSymbolicLink(path: String, target: String)
  /// Another program changed the file while it was being read (truncated or wrote it):
  /// what was read is not one version of the file, so none of it is used.
  case changedWhileReading(path: String)
  /// Another program changed the file a save was reading its unchanged records from
  /// (`read`, the file as the session read it) while the save ran: nothing was replaced.
  case changedWhileSaving(path: String, read: String)
  /// A warning, not a failure: the new content is in place, but flushing the folder
  /// failed, so the rename might not survive a power loss or a crash of the system.
  case folderNotFlushed(path: String, cause: SystemCallError)

  /// The failed system call behind the error, if there is one.
  var cause: SystemCallError? {
    switch self {
    case .failed(_, _, let cause), .temporaryFileNotCreated(_, _, let cause),
      .folderNotFlushed(_, let cause):
      cause
    case .notFound, .notRegularFile, .danglingSymbolicLink, .changedWhileReading, .changedWhileSaving:
      nil
    }
  }

  public var description: String {
    switch self {
    case .notFound(let path):
      "cannot read \"\(path)\": no such file"
    case .failed(let operation, let path, let cause):
      "\(Self.phrase(operation, path)): \(cause.summary) (\(cause.call.name))"
    case .notRegularFile(let operation, let path, let kind):
      "\(Self.phrase(operation, path)): it is \(kind.description), not a regular file"
    case .temporaryFileNotCreated(let path, let folder, let cause):
      "cannot save \"\(path)\": \(cause.summary) (creating a temporary file in \"\(folder)\")"
    case .changedWhileReading(let path):
      "\"\(path)\" changed while being read; nothing was opened"
    case .changedWhileSaving(let path, let read):
      "cannot save \"\(path)\": \"\(read)\" changed while the save read it; nothing was saved"
    case .danglingSymbolicLink(let path, let target):
      "cannot save \"\(path)\": it is a symbolic link to \"\(target)\", which does not exist"
    case .folderNotFlushed(let path, let cause):
      "saved \"\(path)\", but could not flush its folder: \(cause.summary) (\(cause.call.name));"
        + " the save may not survive a system crash"
    }
  }

  private static func phrase(_ operation: Operation, _ path: String) -> String {
    switch operation {
    case .read: "cannot read \"\(path)\""
    case .save: "cannot save \"\(path)\""
    case .check: "cannot check whether \"\(path)\" changed on disk"
    }
  }
}

extension StorageError {
  /// Runs `body`, turning a failed system call into ``failed(_:path:cause:)``.
  static func wrapping<Value>(
    _ operation: Operation, _ path: String, _ body: () throws(SystemCallError) -> Value
  ) throws(StorageError) -> Value {
    do throws(SystemCallError) {
      return try body()
    } catch {
      throw .failed(operation, path: path, cause: error)
    }
  }
}
