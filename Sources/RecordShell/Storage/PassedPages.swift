import Glibc

/// A mapped file read front to back, its pages let go behind the reader a window at a
/// time (`madvise(MADV_DONTNEED)` through the file system seam): what keeps a load, or a
/// save over a held file, from holding the whole file in memory beside the records. A page
/// let go is read again from the file should the reader look back.
///
/// `pass` hands the pages it lets go to the caller first (a scan hashes them), so that
/// every byte is seen once in order: the pages passed, then `rest` at the end.
struct PassedPages {
  /// How much is passed before pages are let go: one `madvise` per 64 pages.
  static let window = 1 << 18
  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  private let mapping: UnsafeRawBufferPointer
  private let file: FileDescriptor
  private let fileSystem: any FileSystem
  /// Where the pages not yet let go start.
  private(set) var done = 0

  init(_ mapping: UnsafeRawBufferPointer, of file: FileDescriptor, using fileSystem: any FileSystem) {
    (self.mapping, self.file, self.fileSystem) = (mapping, file, fileSystem)
  }

  /// The reader is past `offset`: once a window of whole pages lies behind it, they are
  /// handed to `seen` and let go. Returns whether pages went.
  @discardableResult
  mutating func pass(_ offset: Int, _ seen: (UnsafeRawBufferPointer) -> Void = { _ in }) -> Bool {
    guard offset - done >= Self.window else { return false }
    let end = min(offset, mapping.count) / Self.pageSize * Self.pageSize
    let pages = UnsafeRawBufferPointer(rebasing: mapping[done..<end])
    seen(pages)
    try? fileSystem.dropPages(pages, of: file)
    done = end
    return true
  }

  /// The bytes not let go yet.
  var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: mapping[done...]) }
}
