import Glibc

/// Reads a whole data file through the ``FileSystem`` seam, with the identity it had.
public enum FileReader {
  /// The bytes of the regular file at `path` and its identity, taken with `fstat` on the
  /// same descriptor before reading, so the identity belongs to the file the bytes came
  /// from. Should the file change while being read, a later changed-on-disk check sees it.
  ///
  /// Throws ``StorageError/notFound(path:)`` when nothing is there, so the shell can start
  /// an empty document, and refuses directories, pipes and devices.
  public static func readFile(_ path: String, using fileSystem: some FileSystem) throws(StorageError)
    -> (bytes: [UInt8], identity: FileIdentity)
  {
    let file: FileDescriptor
    do throws(SystemCallError) {
      // O_NONBLOCK: opening a named pipe must not hang; the fstat below then refuses it.
      file = try fileSystem.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK, mode: 0)
    } catch let error where error.code == ENOENT {
      throw .notFound(path: path)
    } catch {
      throw .failed(.read, path: path, cause: error)
    }
    // A descriptor opened for reading holds no unwritten data: its close cannot lose any.
    defer { try? fileSystem.close(file) }
    let status = try StorageError.wrapping(.read, path) { () throws(SystemCallError) in
      try fileSystem.fstat(file)
    }
    guard status.kind == .regularFile else {
      throw .notRegularFile(.read, path: path, kind: status.kind)
    }
    let bytes = try StorageError.wrapping(.read, path) { () throws(SystemCallError) in
      try readAll(file, expectedSize: Int(clamping: status.size), using: fileSystem)
    }
    return (bytes, FileIdentity(status))
  }

  /// Reads until end of file, going on after short reads and past `expectedSize`.
  private static func readAll(
    _ file: FileDescriptor, expectedSize: Int, using fileSystem: some FileSystem
  ) throws(SystemCallError) -> [UInt8] {
    // One byte more than expected, so that the read that sees end of file needs no growth.
    var bytes = [UInt8](repeating: 0, count: expectedSize + 1)
    var count = 0
    while true {
      if count == bytes.count {
        bytes.append(contentsOf: repeatElement(0, count: max(count, 4096)))
      }
      let filled = count
      let result: Result<Int, SystemCallError> = bytes.withUnsafeMutableBytes { buffer in
        do throws(SystemCallError) {
          return .success(
            try fileSystem.read(file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])))
        } catch {
          return .failure(error)
        }
      }
      let read = try result.get()
      if read == 0 { break }
      count += read
    }
    bytes.removeSubrange(count...)
    return bytes
  }
}
