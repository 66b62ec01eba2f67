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

  /// Removes the temporary files a save of `name` left in `folder` when it was killed
  /// midway (`kill -9`, a power cut, a file size limit): the names of this type's own
  /// pattern for `name`, and only those. Returns the paths removed.
  ///
  /// The caller must know that no save of the file is running in another process: the
  /// shell calls it only while it holds the file's journal lock, which every recsh
  /// editing the file holds. Best effort: a folder that cannot be listed or a file that
  /// cannot be removed is left as it is (it holds no data the user has not got).
  static func removeStale(in folder: String, for name: String, using fileSystem: some FileSystem) -> [String]
  {
    guard let entries = try? fileSystem.listDirectory(folder) else { return [] }
    let stem = Self.stem(of: name)
    var removed: [String] = []
    for entry in entries where isTemporaryName(entry, stem: stem) {
      let path = Self.path(entry, in: folder)
      if (try? fileSystem.unlink(path)) != nil { removed.append(path) }
    }
    return removed
  }

  /// The letters of the random part of a temporary file's name.
  private static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
  private static let randomLength = 6

  /// Whether `entry` is `.STEM.recsh-XXXXXX.tmp` with six letters of `alphabet`.
  static func isTemporaryName(_ entry: String, stem: Substring) -> Bool {
    let prefix = Array(".\(stem).recsh-".utf8)
    let suffix = Array(".tmp".utf8)
    let bytes = Array(entry.utf8)
    guard bytes.count == prefix.count + randomLength + suffix.count, bytes.starts(with: prefix),
      bytes.suffix(suffix.count).elementsEqual(suffix)
    else { return false }
    return bytes[prefix.count..<prefix.count + randomLength].allSatisfy(alphabet.contains)
  }

  /// The original's name as temporary names hold it: cut to keep the whole name under
  /// NAME_MAX (255 bytes) however long the original's is.
  static func stem(of name: String) -> Substring {
    var stem = Substring(name)
    while stem.utf8.count > 200 { stem = stem.dropLast() }
    return stem
  }

  private static func path(_ file: String, in folder: String) -> String {
    folder == "/" ? "/" + file : folder + "/" + file
  }

  private static func temporaryPath(in folder: String, for name: String) -> String {
    let suffix = String(
      decoding: (0..<randomLength).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] }, as: UTF8.self)
    return path(".\(stem(of: name)).recsh-\(suffix).tmp", in: folder)
  }
}
