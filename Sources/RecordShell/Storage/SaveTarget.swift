import Glibc

/// The file a save replaces, found before anything is written.
///
/// A symbolic link is followed: the file it points to is replaced, in that file's folder,
/// so the link stays a link and every other name for the target sees the new content.
/// Anything but a regular file is refused, and so is a file the user may not write —
/// replacing it by rename would otherwise succeed, silently overriding its read-only mode.
struct SaveTarget: Equatable {
  /// The path as the caller gave it; messages name it.
  let path: String
  /// The regular file that gets replaced: `path` itself, or where its link leads.
  let resolvedPath: String
  /// The folder of `resolvedPath`, where the temporary file goes.
  let folder: String
  /// The last component of `resolvedPath`.
  let name: String
  /// The file there now; `nil` when the save creates it.
  let original: FileStatus?

  private init(path: String, resolvedPath: String, original: FileStatus?) {
    self.path = path
    self.resolvedPath = resolvedPath
    self.original = original
    if let slash = resolvedPath.lastIndex(of: "/") {
      let folder = resolvedPath[..<slash]
      self.folder = folder.isEmpty ? "/" : String(folder)
      self.name = String(resolvedPath[resolvedPath.index(after: slash)...])
    } else {
      self.folder = "."
      self.name = resolvedPath
    }
  }

  static func resolve(_ path: String, using fileSystem: some FileSystem) throws(StorageError) -> SaveTarget {
    let status: FileStatus
    do throws(SystemCallError) {
      status = try fileSystem.lstat(path)
    } catch let error where error.code == ENOENT {
      return SaveTarget(path: path, resolvedPath: path, original: nil)
    } catch {
      throw .failed(.save, path: path, cause: error)
    }
    var resolvedPath = path
    var original = status
    if status.kind == .symbolicLink {
      resolvedPath = try resolveLink(path, using: fileSystem)
      original = try StorageError.wrapping(.save, path) { () throws(SystemCallError) in
        try fileSystem.stat(resolvedPath)
      }
    }
    guard original.kind == .regularFile else {
      throw .notRegularFile(.save, path: path, kind: original.kind)
    }
    try StorageError.wrapping(.save, path) { () throws(SystemCallError) in
      try fileSystem.access(resolvedPath, mode: W_OK)
    }
    return SaveTarget(path: path, resolvedPath: resolvedPath, original: original)
  }

  /// Where the link at `path` finally leads, as an absolute path.
  private static func resolveLink(_ path: String, using fileSystem: some FileSystem) throws(StorageError)
    -> String
  {
    do throws(SystemCallError) {
      return try fileSystem.realpath(path)
    } catch let error where error.code == ENOENT {
      let target = (try? fileSystem.readlink(path)) ?? "?"
      throw .danglingSymbolicLink(path: path, target: target)
    } catch {
      throw .failed(.save, path: path, cause: error)
    }
  }
}
