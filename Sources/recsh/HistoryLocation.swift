import Glibc

/// Where the typed lines are kept between sessions, by the XDG convention:
/// `RECSH_HISTORY` when set (empty: no history), else
/// `$XDG_STATE_HOME/recsh/history`, else `~/.local/state/recsh/history`.
enum HistoryLocation: Equatable {
  case none
  /// A file the user named; its folder is theirs to make.
  case file(String)
  /// The file in recsh's state folder, made (0700) when missing.
  case stateFile(folder: String, file: String)

  /// The location for an environment; `home` when `HOME` is not set.
  static func resolve(_ environment: (String) -> String?, home: () -> String?) -> HistoryLocation {
    if let path = environment("RECSH_HISTORY") { return path.isEmpty ? .none : .file(path) }
    var state = environment("XDG_STATE_HOME") ?? ""
    // The XDG spec: a relative path is invalid and ignored.
    if !state.hasPrefix("/") {
      guard let home = environment("HOME").flatMap({ $0.isEmpty ? nil : $0 }) ?? home() else { return .none }
      state = home + "/.local/state"
    }
    let folder = state + "/recsh"
    return .stateFile(folder: folder, file: folder + "/history")
  }

  /// The location for this process.
  static var current: HistoryLocation {
    resolve(
      { name in getenv(name).map { String(cString: $0) } },
      home: { getpwuid(getuid()).flatMap { $0.pointee.pw_dir }.map { String(cString: $0) } })
  }

  /// The history file's path, making recsh's state folder (and the folders
  /// above it) with mode 0700 when missing; `nil` for no history or a folder
  /// that cannot be made.
  func prepare() -> String? {
    switch self {
    case .none: return nil
    case .file(let path): return path
    case .stateFile(let folder, let file):
      var path = ""
      for component in folder.split(separator: "/") {
        path += "/" + component
        if mkdir(path, 0o700) != 0 && errno != EEXIST { return nil }
      }
      return file
    }
  }
}
