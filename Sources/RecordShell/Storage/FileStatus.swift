import Glibc

/// The fields of `struct stat` that saving and loading use, as plain Swift values.
public struct FileStatus: Equatable, Sendable {
  /// What kind of object a path names; only a regular file can be loaded or saved over.
  public enum Kind: Sendable, Equatable {
    case regularFile, directory, symbolicLink, namedPipe, socket, device

    /// How messages name the kind: `it is a directory, not a regular file`.
    var description: String {
      switch self {
      case .regularFile: "a regular file"
      case .directory: "a directory"
      case .symbolicLink: "a symbolic link"
      case .namedPipe: "a named pipe"
      case .socket: "a socket"
      case .device: "a device"
      }
    }
  }

  var device: UInt64
  var inode: UInt64
  /// The whole `st_mode`: type bits and permission bits.
  var mode: UInt32
  var owner: UInt32
  var group: UInt32
  public var size: Int64
  /// The modification time in nanoseconds since the epoch.
  var modificationTime: Int64

  init(
    device: UInt64, inode: UInt64, mode: UInt32, owner: UInt32, group: UInt32, size: Int64,
    modificationTime: Int64
  ) {
    self.device = device
    self.inode = inode
    self.mode = mode
    self.owner = owner
    self.group = group
    self.size = size
    self.modificationTime = modificationTime
  }

  /// The permission bits, setuid/setgid/sticky included: what a saved copy must keep.
  var permissions: UInt32 { mode & 0o7777 }

  var kind: Kind {
    switch mode & UInt32(S_IFMT) {
    case UInt32(S_IFREG): .regularFile
    case UInt32(S_IFDIR): .directory
    case UInt32(S_IFLNK): .symbolicLink
    case UInt32(S_IFIFO): .namedPipe
    case UInt32(S_IFSOCK): .socket
    default: .device
    }
  }
}
