import Glibc

/// Saves a data file so that a failure at any point leaves the original byte-identical.
///
/// The new content goes to a temporary file beside the original, is flushed to disk with
/// the original's owner and permissions, and only then renamed over it; the folder is
/// flushed last so that the rename itself survives a crash. Foundation's
/// `Data.write(options: .atomic)` is not used: it turned a 0600 file into 0644 and does
/// not flush the folder. Every call goes through a ``FileSystem`` so tests can fail each.
public enum AtomicFile {
  /// Replaces the file at `path` with `bytes`, or creates it; see `save(to:using:contents:)`.
  @discardableResult
  public static func save(bytes: [UInt8], to path: String, using fileSystem: some FileSystem)
    throws(StorageError) -> SaveOutcome
  {
    try save(to: path, using: fileSystem) { (write) throws(SystemCallError) in
      try bytes.withUnsafeBufferPointer { (buffer) throws(SystemCallError) in try write(buffer) }
    }
  }

  /// Replaces the file at `path` with what `contents` writes, or creates it.
  ///
  /// `contents` is called once, with a function that writes one chunk to the new file,
  /// so that a big file is written as it is encoded instead of being held whole in
  /// memory first; each chunk is written in full (short writes are continued).
  ///
  /// - A symbolic link is written through: its target is replaced, the link stays.
  /// - An existing file keeps its permission bits and, where the process may set them, its
  ///   owner and group. A new file gets `0666` minus the umask (and the folder's default
  ///   ACL), decided by the kernel at creation, like `vim`, `touch` or `>` in a shell.
  /// - Throws only while the original is untouched; the temporary file is then removed.
  ///   A failure to flush the folder after the rename is reported in the outcome instead.
  @discardableResult
  public static func save(
    to path: String, using fileSystem: some FileSystem,
    contents: (_ write: (UnsafeBufferPointer<UInt8>) throws(SystemCallError) -> Void) throws(SystemCallError)
      -> Void
  ) throws(StorageError) -> SaveOutcome {
    let target = try SaveTarget.resolve(path, using: fileSystem)
    var temporary: TemporaryFile
    do throws(SystemCallError) {
      temporary = try TemporaryFile.create(
        in: target.folder, for: target.name, mode: target.original == nil ? 0o666 : 0o600,
        using: fileSystem)
    } catch {
      throw .temporaryFileNotCreated(path: path, folder: target.folder, cause: error)
    }
    let identity: FileIdentity
    do throws(SystemCallError) {
      try contents { (chunk) throws(SystemCallError) in try temporary.write(chunk, using: fileSystem) }
      if let original = target.original {
        try adoptOwnerAndPermissions(of: original, file: temporary.descriptor, using: fileSystem)
      }
      try fileSystem.fsync(temporary.descriptor)
      identity = FileIdentity(try fileSystem.fstat(temporary.descriptor))
      try temporary.close(using: fileSystem)
      try fileSystem.rename(temporary.path, to: target.resolvedPath)
    } catch {
      temporary.discard(using: fileSystem)
      throw .failed(.save, path: path, cause: error)
    }
    do throws(SystemCallError) {
      try flushFolder(target.folder, using: fileSystem)
    } catch {
      return SaveOutcome(identity: identity, warning: .folderNotFlushed(path: path, cause: error))
    }
    return SaveOutcome(identity: identity, warning: nil)
  }

  /// Removes the temporary files that saves of `path` left when killed midway (see
  /// `TemporaryFile.removeStale`); the caller must hold the file's journal lock. Returns
  /// the paths removed.
  static func removeStaleTemporaryFiles(of path: String, using fileSystem: some FileSystem) -> [String] {
    guard let target = try? SaveTarget.resolve(path, using: fileSystem) else { return [] }
    return TemporaryFile.removeStale(in: target.folder, for: target.name, using: fileSystem)
  }

  /// Gives the new file the original's owner, group and permissions.
  ///
  /// `fchown` comes first because it clears setuid/setgid bits. Changing the owner needs
  /// privilege (`EPERM` otherwise) and is then skipped; if the group cannot be kept either,
  /// the group gets only what others get, so that no group gains access the original's
  /// group had. A setuid or setgid bit is dropped when the owner or group cannot be set.
  private static func adoptOwnerAndPermissions(
    of original: FileStatus, file: FileDescriptor, using fileSystem: some FileSystem
  ) throws(SystemCallError) {
    var permissions = original.permissions
    do throws(SystemCallError) {
      try fileSystem.fchown(file, owner: original.owner, group: original.group)
    } catch let error where error.code == EPERM {
      permissions &= ~UInt32(S_ISUID)
      do throws(SystemCallError) {
        try fileSystem.fchown(file, owner: nil, group: original.group)
      } catch let error where error.code == EPERM {
        let others = permissions & 0o007
        permissions = (permissions & ~UInt32(S_ISGID | 0o070)) | others << 3
      }
    }
    try fileSystem.fchmod(file, mode: permissions)
  }

  /// Flushes the folder so that the rename in it is on disk, not only in the cache.
  private static func flushFolder(_ folder: String, using fileSystem: some FileSystem)
    throws(SystemCallError)
  {
    let directory = try fileSystem.openDirectory(folder)
    do throws(SystemCallError) {
      try fileSystem.fsync(directory)
    } catch {
      try? fileSystem.close(directory)
      throw error
    }
    try fileSystem.close(directory)
  }
}
