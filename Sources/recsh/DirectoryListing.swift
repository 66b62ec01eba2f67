import Glibc
import RecordShell

/// The names in a folder, for completing file paths at the prompt.
enum DirectoryListing {
  /// The entries of `folder` as typed (`""`: the working folder); a symbolic
  /// link to a folder counts as a folder. Empty when it cannot be read.
  static func entries(_ folder: String) -> [CompletionContext.DirectoryEntry] {
    let path = folder.isEmpty ? "." : folder
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var entries: [CompletionContext.DirectoryEntry] = []
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      guard name != ".", name != ".." else { continue }
      var isDirectory = Int32(entry.pointee.d_type) == DT_DIR
      if Int32(entry.pointee.d_type) == DT_LNK || Int32(entry.pointee.d_type) == DT_UNKNOWN {
        var status = stat()
        isDirectory = stat(path + "/" + name, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
      }
      entries.append(CompletionContext.DirectoryEntry(name, isDirectory: isDirectory))
    }
    return entries
  }
}
