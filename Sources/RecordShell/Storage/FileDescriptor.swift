/// An open file descriptor, together with the path it was opened by.
///
/// The path rides along so that an error from a call on the descriptor (`write`,
/// `fsync`, `close`) can still say which file it was about.
public struct FileDescriptor: Hashable, Sendable {
  let rawValue: Int32
  let path: String
}
