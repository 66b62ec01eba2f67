import RecordKit
import RecordShell

extension KindChoice {
  /// The schema beside the data file at `path`, when there is one that is not empty (an
  /// empty one is what `recsh FILE -c schema > FILE.schema.json` leaves while it runs):
  /// `recsh diff` and `recsh merge` read git's temporary files by the work tree's path.
  static func nonEmptySchema(besideDataFile path: String) -> String? {
    let beside = schemaPath(besideDataFile: path)
    guard let status = try? PosixFileSystem().stat(beside), status.size > 0 else { return nil }
    return beside
  }
}

/// Why `recsh diff` or `recsh merge` could not do its work (exit 3), with the error that
/// stopped it; `message` words it as opening the file would.
enum FileCommandFailure: Error {
  /// A file (or its schema) could not be read as the kind chosen.
  case load(SessionError)
  /// No shipped kind has the name (`--kind` is checked as it is read: not expected).
  case noKind(String)
  /// `path` (the merge's `role`) read as another kind than `chooser`'s (`chooserRole`),
  /// `kind`: why it did not read, or the warning that it holds another kind's records.
  case otherKind(role: String, path: String, kind: String, chooserRole: String, chooser: String, Mismatch)
  /// The three versions cannot be merged by record (the kind has no key).
  case cannotMerge(naming: String, RecordMergeError)
  /// Writing the result to `target` failed; `target` is as it was.
  case write(target: String, StorageError)
  /// The result was written, but its conflicts could not be kept: no state folder
  /// (`nil`), or the folder's or the write's error.
  case conflictsNotKept((any Error)?)

  /// How a file turned out not to be of the chosen kind.
  enum Mismatch {
    case unreadable(SessionError)
    case warning(String)
  }

  var message: String {
    switch self {
    case .load(let error): Shell.loadFailure(error)
    case .noKind(let name): "recsh: no kind \"\(name)\""
    case .otherKind(let role, let path, let kind, let chooserRole, let chooser, .unreadable(let error)):
      Shell.loadFailure(error)
        + "\nrecsh: \(role) \"\(path)\" does not read as kind \(kind), the kind of \(chooserRole) \"\(chooser)\""
    case .otherKind(let role, let path, let kind, let chooserRole, _, .warning(let warning)):
      "recsh: \(role) \"\(path)\" holds records of another kind than \(chooserRole) (read as \(kind): \(warning))"
    case .cannotMerge(let naming, let error): "recsh: cannot merge \(naming): \(error.description)"
    case .write(let target, let error): "recsh: \(error.description); \(target) is unchanged"
    case .conflictsNotKept(nil):
      "recsh: the merge was written, but its conflicts could not be kept: no state folder "
        + "(neither HOME nor RECSH_STATE_DIR is set)"
    case .conflictsNotKept(let error?):
      "recsh: the merge was written, but its conflicts could not be kept: \(error)"
    }
  }
}

extension DataFile {
  /// The file at `path`, which must exist: opening a missing file makes a new one, but
  /// comparing or merging one is an error (the `stat`'s, with the path).
  static func loadExisting(_ path: String, layout: RecordLayout?) throws(SessionError) -> Loaded {
    let fileSystem = PosixFileSystem()
    do {
      _ = try fileSystem.stat(path)
    } catch {
      throw .storage(.failed(.read, path: path, cause: error))
    }
    return try load(path, layout: layout, using: fileSystem)
  }
}
