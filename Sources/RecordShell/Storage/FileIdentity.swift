import Glibc

/// What identifies the data file as it was loaded or saved, to notice a change on disk.
///
/// Device and inode catch a file replaced by rename (how editors and recsh save); size and
/// the nanosecond modification time catch a rewrite in place. A rewrite that keeps the size
/// within one tick of the file system's clock (a few milliseconds) goes unnoticed: the
/// same trade-off vim and other editors make.
public struct FileIdentity: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64
  let size: Int64
  /// Nanoseconds since the epoch.
  let modificationTime: Int64

  init(device: UInt64, inode: UInt64, size: Int64, modificationTime: Int64) {
    self.device = device
    self.inode = inode
    self.size = size
    self.modificationTime = modificationTime
  }

  init(_ status: FileStatus) {
    self.init(
      device: status.device, inode: status.inode, size: status.size,
      modificationTime: status.modificationTime)
  }

  /// The identity of the file at `path` now, following a symbolic link; `nil` when there is
  /// no file there.
  static func current(at path: String, using fileSystem: some FileSystem) throws(StorageError)
    -> FileIdentity?
  {
    do throws(SystemCallError) {
      return FileIdentity(try fileSystem.stat(path))
    } catch let error where error.code == ENOENT {
      return nil
    } catch {
      throw .failed(.check, path: path, cause: error)
    }
  }

  /// Whether the file at `path` is no longer the one `identity` describes. `nil` means there
  /// was no file: one created since counts as a change, and so does a file that was there
  /// and is gone.
  static func fileChanged(
    at path: String, since identity: FileIdentity?, using fileSystem: some FileSystem
  ) throws(StorageError) -> Bool {
    try current(at: path, using: fileSystem) != identity
  }
}
