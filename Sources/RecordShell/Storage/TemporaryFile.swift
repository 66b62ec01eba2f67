import Glibc

/// The file a save writes in full before renaming it over the original.
///
/// It is created beside the original — a rename is only atomic within one file system —
/// as a hidden file whose name says who left it, `.tasks.json.recsh-Ab12Cd.tmp`, with
/// `O_EXCL | O_NOFOLLOW` so that it can never be an existing file or a planted link.
struct TemporaryFile {
  let path: String
  let descriptor: FileDescriptor
  private(set) var isOpen = true

  /// How many random names are tried before giving up. One clash among 62⁶ names is
  /// already unlikely; a hundred means something else is wrong, e.g. a broken file system.
  static let maximumAttempts = 100

  /// Creates the file with a fresh random name in `folder`.
  static func create(
    in folder: String, for name: String, mode: mode_t, using fileSystem: some FileSystem
  ) throws(SystemCallError) -> TemporaryFile {
    let flags = O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC
    var attempt = 1
    while true {
      let path = temporaryPath(in: folder, for: name)
      do throws(SystemCallError) {
        let descriptor = try fileSystem.open(path, flags: flags, mode: mode)
        return TemporaryFile(path: path, descriptor: descriptor)
      } catch let error where error.code == EEXIST && attempt < maximumAttempts {
        attempt += 1
      }
    }
  }

  /// Writes all of `bytes`, going on after short writes.
  func write(_ bytes: UnsafeBufferPointer<UInt8>, using fileSystem: some FileSystem) throws(SystemCallError) {
    let buffer = UnsafeRawBufferPointer(bytes)
    var offset = 0
    while offset < buffer.count {
      let written = try fileSystem.write(
        descriptor, from: UnsafeRawBufferPointer(rebasing: buffer[offset...]))
      // A write that makes no progress would loop forever; it is an I/O error.
      guard written > 0 else { throw SystemCallError(.write, code: EIO, path: path) }
      offset += written
    }
  }

  /// Closes the descriptor; afterwards it is closed even when this throws.
  mutating func close(using fileSystem: some FileSystem) throws(SystemCallError) {
    guard isOpen else { return }
    isOpen = false
    try fileSystem.close(descriptor)
  }

  /// Best-effort clean-up after a failed save: closes and removes the file. Its own
  /// failures are dropped so that they never hide the error that made the save fail.
  mutating func discard(using fileSystem: some FileSystem) {
    try? close(using: fileSystem)
    try? fileSystem.unlink(path)
  }

  private static func temporaryPath(in folder: String, for name: String) -> String {
    // Keep the whole name under NAME_MAX (255 bytes) however long the original's is.
    var stem = Substring(name)
    while stem.utf8.count > 200 { stem = stem.dropLast() }
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    let suffix = String((0..<6).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
    let file = ".\(stem).recsh-\(suffix).tmp"
    return folder == "/" ? "/" + file : folder + "/" + file
  }
}
