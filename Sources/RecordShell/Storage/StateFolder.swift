import Glibc

/// Where recsh keeps what belongs to a user's data files — each file's history log
/// (which is also its crash journal and carries the one-writer lock), a merge's
/// conflicts, set-aside backups — so that nothing of recsh's is ever written beside the
/// data file.
///
/// - The folder is the first of `--state-dir DIR`, `$RECSH_STATE_DIR`,
///   `$XDG_STATE_HOME/recsh` (an absolute path only, as the XDG convention says) and
///   `~/.local/state/recsh`. It is made (with the folders above it) with mode 0700 when
///   first needed — at a session's first edit, never by a session that changes nothing.
/// - A folder another user owns, or that group or others can write (`mode & 022`), is
///   unsafe: another user could plant a history there or read one. recsh then reads no
///   history from it and refuses the first edit (`check`).
/// - A data file's names there are its file name and the `ContentHash` of its canonical
///   absolute path (`tasks.json-3f9a0c5e12b7d4a8`), so two `tasks.json` in two folders
///   never meet, and a file moved or renamed starts a new history. The canonical path
///   resolves the folder's symbolic links (`realpath` of the folder), not the file's own:
///   a link to a file is edited as the link names it.
public struct StateFolder: Equatable, Sendable {
  /// The folder's absolute path.
  let path: String

  /// The folder for this process: `explicit` (`--state-dir`), else the environment's.
  /// `nil` when no rule gives one (no `HOME` and nothing set): then no history is kept
  /// and crash recovery is off.
  static func resolve(explicit: String?, environment: (String) -> String?, home: () -> String?)
    -> StateFolder?
  {
    if let explicit, !explicit.isEmpty { return StateFolder(path: absolute(explicit)) }
    if let path = environment("RECSH_STATE_DIR"), !path.isEmpty { return StateFolder(path: absolute(path)) }
    if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
      return StateFolder(path: state + "/recsh")
    }
    guard let home = environment("HOME").flatMap({ $0.isEmpty ? nil : $0 }) ?? home() else { return nil }
    return StateFolder(path: home + "/.local/state/recsh")
  }

  /// The folder of this process: `explicit` (`--state-dir`), else its environment's.
  public static func forProcess(explicit: String?) -> StateFolder? {
    resolve(
      explicit: explicit, environment: { name in getenv(name).map { String(cString: $0) } },
      home: { getpwuid(getuid()).flatMap { $0.pointee.pw_dir }.map { String(cString: $0) } })
  }

  /// `path` made absolute against the current folder (a relative `--state-dir` names a
  /// folder of the shell that started recsh, whatever recsh does later).
  static func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    guard let cwd = getcwd(nil, 0) else { return path }
    defer { free(cwd) }
    let base = String(cString: cwd)
    return (base.hasSuffix("/") ? base : base + "/") + path
  }

  // MARK: Names

  /// The stem of every name kept for `dataPath`: `NAME-HASH`, HASH being the content
  /// hash of its canonical absolute path (see the type's comment). Costs one `realpath`.
  func stem(forDataFile dataPath: String) -> String {
    let slash = dataPath.lastIndex(of: "/")
    let name = slash.map { String(dataPath[dataPath.index(after: $0)...]) } ?? dataPath
    return name + "-" + ContentHash.of(Array(Self.canonical(dataPath).utf8))
  }

  /// The data file's canonical absolute path: its folder with every symbolic link
  /// resolved, and its name. A folder that does not exist (yet) is taken as written,
  /// made absolute.
  static func canonical(_ dataPath: String) -> String {
    let slash = dataPath.lastIndex(of: "/")
    let folder = slash.map { String(dataPath[..<$0]) } ?? "."
    let name = slash.map { String(dataPath[dataPath.index(after: $0)...]) } ?? dataPath
    let resolved: String
    if let real = Glibc.realpath(folder.isEmpty ? "/" : folder, nil) {
      resolved = String(cString: real)
      free(real)
    } else {
      resolved = absolute(folder)
    }
    return (resolved.hasSuffix("/") ? resolved : resolved + "/") + name
  }

  /// The history log of `dataPath` (also its journal and its lock).
  func logPath(forDataFile dataPath: String) -> String {
    path + "/" + stem(forDataFile: dataPath) + ".log"
  }

  /// The conflicts `recsh merge` left in `dataPath` (`ConflictFile`).
  public func conflictsPath(forDataFile dataPath: String) -> String {
    path + "/" + stem(forDataFile: dataPath) + ".conflicts"
  }

  /// Where a history of the log at `logPath` set aside at `time` (seconds since 1970)
  /// goes: `STEM.TIME.bak`, one more `-N` when that name is taken.
  func backupPath(forLog logPath: String, time: Int, using fileSystem: any FileSystem) -> String {
    let stem = Self.stem(ofLog: logPath)
    var candidate = "\(stem).\(time).bak"
    var number = 2
    while (try? fileSystem.lstat(candidate)) != nil {
      candidate = "\(stem).\(time)-\(number).bak"
      number += 1
    }
    return candidate
  }

  /// The log's path without its `.log`: what its backups' names begin with.
  private static func stem(ofLog logPath: String) -> String {
    logPath.hasSuffix(".log") ? String(logPath.dropLast(".log".count)) : logPath
  }

  /// The backups set aside for the log at `logPath`, oldest first (by the time in their
  /// names, then the number after it).
  func backups(ofLog logPath: String, using fileSystem: any FileSystem) -> [String] {
    let stem = Self.stem(ofLog: logPath)
    let prefix = String(stem.dropFirst(path.count + 1)) + "."
    guard let names = try? fileSystem.listDirectory(path) else { return [] }
    let found: [(time: Int, number: Int, name: String)] = names.compactMap { name in
      guard name.hasPrefix(prefix), name.hasSuffix(".bak") else { return nil }
      let middle = name.dropFirst(prefix.count).dropLast(4)
      let parts = middle.split(separator: "-", maxSplits: 1)
      guard let time = parts.first.flatMap({ Int($0) }) else { return nil }
      return (time, parts.count > 1 ? Int(parts[1]) ?? 0 : 1, name)
    }
    return found.sorted { ($0.time, $0.number) < ($1.time, $1.number) }.map { path + "/" + $0.name }
  }

  /// How many backups are kept per data file; a new one beyond it removes the oldest.
  static var backupLimit: Int { 3 }

  /// Removes the oldest backups of the log at `logPath` beyond `backupLimit`; returns a
  /// message per backup removed (what was removed, and why).
  func pruneBackups(ofLog logPath: String, using fileSystem: any FileSystem) -> [String] {
    let all = backups(ofLog: logPath, using: fileSystem)
    guard all.count > Self.backupLimit else { return [] }
    return all.prefix(all.count - Self.backupLimit).compactMap { old in
      do throws(SystemCallError) {
        try fileSystem.unlink(old)
        return "removed the oldest backup \"\(old)\" (at most \(Self.backupLimit) are kept per file)"
      } catch {
        return "cannot remove the old backup \"\(old)\" (\(error.summary))"
      }
    }
  }

  // MARK: Safety

  /// What the folder is now, read without changing anything.
  enum Condition: Equatable, Sendable {
    /// It does not exist (yet): `prepare` makes it.
    case missing
    case usable
    /// recsh must not use it: why, as the error says it.
    case unsafe(String)
    /// `stat` failed other than by its absence (EIO, EACCES on a folder above): what is
    /// there is unknown, so a history in it may hold unsaved work.
    case unexaminable(SystemCallError)
  }

  /// Whether the folder may be used: it must be a folder (a symbolic link to one is
  /// followed), owned by this user, and not writable by group or others.
  func check(using fileSystem: any FileSystem) -> Condition {
    let status: FileStatus
    do throws(SystemCallError) {
      status = try fileSystem.stat(path)
    } catch {
      // ENOTDIR: a file where a folder above it goes, so nothing of recsh's can be there.
      return error.code == ENOENT || error.code == ENOTDIR ? .missing : .unexaminable(error)
    }
    guard status.kind == .directory else { return .unsafe("it is \(status.kind.description), not a folder") }
    let user = geteuid()
    if status.owner != user {
      return .unsafe("it belongs to another user (uid \(status.owner), not \(user))")
    }
    if status.permissions & 0o022 != 0 {
      let who =
        status.permissions & 0o020 != 0
        ? (status.permissions & 0o002 != 0 ? "group and others" : "group") : "others"
      return .unsafe(
        "\(who) can write it (mode \(String(status.permissions, radix: 8))); 'chmod 700' makes it private")
    }
    return .usable
  }

  /// Makes the folder, and the folders above it that are missing, with mode 0700, then
  /// checks it (`check`). Throws what stopped it.
  public func prepare(using fileSystem: any FileSystem) throws(StateFolderError) {
    switch check(using: fileSystem) {
    case .usable: return
    case .unsafe(let reason): throw .unsafe(path: path, reason: reason)
    case .unexaminable(let error): throw .cannotMake(path: path, error)
    case .missing: break
    }
    var made = ""
    for component in path.split(separator: "/") {
      made += "/" + component
      do throws(SystemCallError) {
        try fileSystem.makeDirectory(made, mode: 0o700)
      } catch {
        if error.code != EEXIST { throw .cannotMake(path: path, error) }
      }
    }
    if case .unsafe(let reason) = check(using: fileSystem) { throw .unsafe(path: path, reason: reason) }
  }
}

extension StateFolder {
  /// Moves a file an earlier recsh kept beside a data file (`old`) to `new` in this
  /// folder, made first when missing: a rename, or across file systems a copy (written
  /// whole and flushed) and the old one's removal.
  func moveIn(_ old: String, to new: String, using fileSystem: any FileSystem) throws(StateFolderError) {
    try prepare(using: fileSystem)
    do throws(SystemCallError) {
      do throws(SystemCallError) {
        try fileSystem.rename(old, to: new)
      } catch {
        guard error.code == EXDEV else { throw error }
        let bytes: [UInt8]
        do throws(StorageError) {
          bytes = try FileReader.readFile(old, using: fileSystem).bytes
          try AtomicFile.save(bytes: bytes, to: new, using: fileSystem)
        } catch {
          throw error.cause ?? SystemCallError(.rename, code: EXDEV, path: old)
        }
        try fileSystem.unlink(old)
      }
    } catch {
      throw .cannotMove(from: old, error)
    }
  }
}

/// Why the state folder cannot be used for an edit.
public enum StateFolderError: Error, Equatable, Sendable {
  /// Another user owns it, or group or others can write it: refused, never used.
  case unsafe(path: String, reason: String)
  /// It could not be made (a read-only or full disk, a missing permission): recsh goes on
  /// with crash recovery off for the file.
  case cannotMake(path: String, SystemCallError)
  /// A file an earlier recsh kept beside a data file could not be moved in.
  case cannotMove(from: String, SystemCallError)
}

extension StateFolderError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unsafe(let path, let reason):
      "recsh's state folder \"\(path)\" is unsafe: \(reason); no edit is made until it is fixed "
        + "(or --state-dir names another)"
    case .cannotMake(let path, let error):
      "cannot make recsh's state folder \"\(path)\" (\(error.summary))"
    case .cannotMove(let old, let error):
      "cannot move \"\(old)\" into recsh's state folder (\(error.summary), \(error.call.name))"
    }
  }
}
