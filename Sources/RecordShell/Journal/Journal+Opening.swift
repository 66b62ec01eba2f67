import Glibc
import RecordKit

/// A journal left by a session that did not end normally, with the steps it holds.
public struct LeftoverJournal: Equatable, Sendable {
  /// The journal's bytes, for the backup `--discard-journal` makes.
  var bytes: [UInt8]
  /// The entries after the header.
  var entries: [JournalEntry]
  var validLength: Int
  var recordCount: Int
  public var tornTail: String?
  public var base: String?
  /// The base file's record numbers, when a save left them other than 0, 1, 2…
  var numbers: [NumberRun]?
  public var pid: Int32
  public var startTime: Double
  /// When the journal was last written (seconds since 1970).
  public var modificationTime: Double
  /// Whether the process that wrote it is still running (another recsh would hold the lock).
  public var writerAlive: Bool

  /// How many entries it holds after the header (edits, group marks, undos…).
  public var stepCount: Int { entries.count }

  /// How many edits it holds, for messages.
  public var changeCount: Int {
    entries.filter { if case .perform = $0 { true } else { false } }.count
  }
}

/// What opening a data file's journal found.
enum JournalOpening {
  /// Ready for appending (new, or an old one with nothing to recover, reset).
  case ready(Journal)
  /// A dead session's journal with steps; the caller decides.
  case leftover(Journal, LeftoverJournal)
  /// A journal that cannot be read (damage in the middle): never reset silently.
  case damaged(Journal, bytes: [UInt8], JournalError)
  /// It cannot be created (a read-only folder, say): crash recovery is off.
  case unavailable(SystemCallError)
  /// It exists but cannot be read or locked: the file is not opened, since the
  /// journal may hold unsaved work.
  case unreadable(SystemCallError)
}

/// Why the data file is not ours to edit now.
public struct JournalLockedError: Error, Equatable, Sendable {
  public var path: String
  public var pid: Int32?
}

extension Journal {
  /// Opens and locks the journal of `dataPath`, creating it when missing. A
  /// journal holding steps is returned as a leftover; otherwise it is reset for `base`.
  static func open(
    forDataFile dataPath: String, base: String?, kind: String, fileSystem: any FileSystem
  ) throws(JournalLockedError) -> JournalOpening {
    let path = Journal.path(forDataFile: dataPath)
    for _ in 0..<3 {
      let file: FileDescriptor
      do throws(SystemCallError) {
        file = try fileSystem.open(
          path, flags: O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, mode: 0o600)
      } catch {
        let exists = (try? fileSystem.lstat(path)) != nil
        return exists ? .unreadable(error) : .unavailable(error)
      }
      do throws(SystemCallError) {
        try fileSystem.lockExclusively(file)
      } catch {
        let holder = try? readAll(file, fileSystem: fileSystem)
        try? fileSystem.close(file)
        if error.code == EAGAIN || error.code == EACCES {
          throw JournalLockedError(path: dataPath, pid: holder.flatMap(headerPID))
        }
        return .unreadable(error)
      }
      // The path may have been unlinked (a normal exit) between open and lock: then it
      // is not the journal any more; try again with the current one.
      let opened: FileStatus
      let current: FileStatus
      do throws(SystemCallError) {
        opened = try fileSystem.fstat(file)
        current = try fileSystem.lstat(path)
      } catch {
        try? fileSystem.close(file)
        return .unreadable(error)
      }
      guard opened.device == current.device, opened.inode == current.inode else {
        try? fileSystem.close(file)
        continue
      }
      let journal = Journal(path: path, fileSystem: fileSystem, file: file)
      let bytes: [UInt8]
      do throws(SystemCallError) {
        bytes = try readAll(file, fileSystem: fileSystem)
      } catch {
        try? fileSystem.close(file)
        return .unreadable(error)
      }
      switch classify(bytes, modificationTime: Double(opened.modificationTime) / 1e9) {
      case .success(let leftover?) where leftover.stepCount > 0:
        return .leftover(journal, leftover)
      case .failure(let error):
        return .damaged(journal, bytes: bytes, error)
      case .success:
        do throws(SystemCallError) {
          // A journal without steps (new, or left with none): nothing to lose, no fsync yet.
          try journal.reset(base: base, kind: kind, durably: false)
        } catch {
          try? fileSystem.close(file)
          return .unavailable(error)
        }
        return .ready(journal)
      }
    }
    // Three times the journal was replaced between our open and our lock (other recsh
    // processes starting and ending): EAGAIN, "try again", is what that is.
    return .unreadable(SystemCallError(.open, code: EAGAIN, path: path))
  }

  /// The journal's records; `nil` when it holds nothing (empty, or a header cut short).
  /// Damage in the middle, or a whole record that is not an entry, throws.
  package static func leftover(_ bytes: [UInt8], modificationTime: Double) throws(JournalError)
    -> LeftoverJournal?
  {
    guard !bytes.isEmpty else { return nil }
    let contents = try JournalFraming.read(bytes)
    var entries: [JournalEntry] = []
    for (index, payload) in contents.payloads.enumerated() {
      entries.append(try JournalEntry(payload: payload, record: index))
    }
    guard let first = entries.first else { return nil }
    guard case .header(let base, let pid, let time, _, let numbers) = first else {
      throw .badEntry(record: 0, reason: "the first record is not a header")
    }
    return LeftoverJournal(
      bytes: bytes, entries: Array(entries.dropFirst()), validLength: contents.validLength,
      recordCount: contents.payloads.count,
      tornTail: contents.tornTail, base: base, numbers: numbers, pid: pid, startTime: time,
      modificationTime: modificationTime,
      writerAlive: pid > 0 && kill(pid, 0) == 0 && pid != getpid())
  }

  private static func classify(_ bytes: [UInt8], modificationTime: Double) -> Result<
    LeftoverJournal?, JournalError
  > {
    Result { () throws(JournalError) in try leftover(bytes, modificationTime: modificationTime) }
  }

  static func headerPID(_ bytes: [UInt8]) -> Int32? {
    guard let contents = try? JournalFraming.read(bytes), let first = contents.payloads.first,
      case .header(_, let pid, _, _, _)? = try? JournalEntry(payload: first, record: 0)
    else { return nil }
    return pid
  }

  static func readAll(_ file: FileDescriptor, fileSystem: any FileSystem) throws(SystemCallError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let result = chunk.withUnsafeMutableBytes { raw in
        Result { () throws(SystemCallError) in try fileSystem.read(file, into: raw) }
      }
      let count = try result.get()
      if count == 0 { return bytes }
      bytes += chunk[0..<count]
    }
  }
}
