import Glibc
import RecordKit

/// A history log as read from disk: its header, its records, and where they end.
public struct LeftoverJournal: Equatable, Sendable {
  /// The log's bytes, for the backup a set-aside makes.
  var bytes: [UInt8]
  var header: JournalEntry.Header
  /// The start state's records, when the log keeps them: the base record's payload,
  /// whose first byte is `JournalEntry.baseMark` (kept as read, not copied again: a big
  /// file's copy is needed only when the file was changed outside recsh).
  var basePayload: ArraySlice<UInt8>?
  /// Whether the log keeps its start records.
  var hasBase: Bool { basePayload != nil }
  /// The entries after the header (and the base).
  var entries: [JournalEntry]
  /// Where each of `entries` ends in the file, and its record number (the base is not
  /// among the entries).
  var ends: [Int]
  var recordNumbers: [Int]
  /// How many records come before `entries` (the header, and the base), and where they end.
  var leading: Int
  var leadingEnd: Int
  var validLength: Int
  var recordCount: Int
  public var tornTail: String?
  /// The pid of the session that wrote last (its `open`, or the header's).
  public var pid: Int32
  /// When that session began.
  public var startTime: Double
  /// When the log was last written (seconds since 1970).
  public var modificationTime: Double
  /// Whether the process that wrote it is still running (another recsh would hold the lock).
  public var writerAlive: Bool
  /// How many entries came after the last save or session start and are not yet saved:
  /// the work a session that died left. Set by `JournalReplay`.
  public var stepCount = 0
  /// How many edits are among them, for messages.
  public var changeCount = 0

  var base: String? { header.base }
}

/// What opening a data file's log found.
enum JournalOpening {
  /// No log, or an empty one: the caller starts it (`Journal.start`).
  case fresh(Journal)
  /// A log with a history (and perhaps a dead session's unsaved steps): the caller reads it.
  case existing(Journal, LeftoverJournal)
  /// A log that cannot be read (damage in the middle, a newer format): never reset silently.
  case damaged(Journal, bytes: [UInt8], JournalError)
  /// It cannot be created (a read-only folder, say): crash recovery is off.
  case unavailable(SystemCallError)
  /// It exists but cannot be read or locked: the file is not opened, since the
  /// journal may hold unsaved work.
  case unreadable(SystemCallError)
  /// Something other than a regular file is where the log goes (a directory, a symbolic
  /// link, a named pipe): never opened, never followed; the caller sets it aside.
  case notAFile(FileStatus.Kind)
}

/// Why the data file is not ours to edit now.
public struct JournalLockedError: Error, Equatable, Sendable {
  public var path: String
  public var pid: Int32?
}

extension Journal {
  /// Opens and locks the log of `dataPath`, creating it when missing, and reads it.
  static func open(forDataFile dataPath: String, fileSystem: any FileSystem) throws(JournalLockedError)
    -> JournalOpening
  {
    let path = Journal.path(forDataFile: dataPath)
    if let status = try? fileSystem.lstat(path), status.kind != .regularFile { return .notAFile(status.kind) }
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
      case .success(let log?): return .existing(journal, log)
      case .failure(let error): return .damaged(journal, bytes: bytes, error)
      case .success(nil): return .fresh(journal)
      }
    }
    // Three times the journal was replaced between our open and our lock (other recsh
    // processes starting and ending): EAGAIN, "try again", is what that is.
    return .unreadable(SystemCallError(.open, code: EAGAIN, path: path))
  }

  /// The log's records; `nil` when it holds nothing (empty, or a header cut short).
  /// Damage in the middle, or a whole record that is not an entry, throws.
  package static func leftover(_ bytes: [UInt8], modificationTime: Double) throws(JournalError)
    -> LeftoverJournal?
  {
    guard !bytes.isEmpty else { return nil }
    let contents = try JournalFraming.read(bytes)
    guard let first = contents.payloads.first else { return nil }
    guard case .header(let header) = try JournalEntry(payload: Array(first), record: 0) else {
      throw .badEntry(record: 0, reason: "the first record is not a header")
    }
    var entries: [JournalEntry] = []
    var ends: [Int] = []
    var recordNumbers: [Int] = []
    var base: ArraySlice<UInt8>?
    var leading = 1
    var pid = header.pid
    var startTime = header.time
    // The work after the last save or session start, unless the session ended normally.
    var steps = 0
    var changes = 0
    var closed = false
    // Groups open at the end hold unsaved work even when a save came after their edits.
    var depth = 0
    for index in 1..<contents.payloads.count {
      if contents.payloads[index].first == JournalEntry.baseMark {
        // Written once, before the first step (the log's start records).
        guard base == nil, !entries.contains(where: { if case .perform = $0 { true } else { false } }) else {
          throw .badEntry(record: index, reason: "start records after the first step")
        }
        base = contents.payloads[index]
        if entries.isEmpty { leading = index + 1 }
        continue
      }
      let entry = try JournalEntry(payload: Array(contents.payloads[index]), record: index)
      switch entry {
      case .header: throw .badEntry(record: index, reason: "a second header")
      case .base: continue
      case .open(let opener, let time, _):
        (pid, startTime) = (opener, time)
        (steps, changes, closed) = (0, 0, false)
      case .save: (steps, changes, closed) = (0, 0, false)
      case .close: closed = true
      case .perform: (steps, changes, closed) = (steps + 1, changes + 1, false)
      case .begin, .end, .rollback, .goto:
        (steps, closed) = (steps + 1, false)
        if case .begin = entry { depth += 1 } else if case .goto = entry {} else { depth = max(0, depth - 1) }
      case .time, .number, .saved, .place: break
      }
      entries.append(entry)
      ends.append(contents.ends[index])
      recordNumbers.append(index)
    }
    return LeftoverJournal(
      bytes: bytes, header: header, basePayload: base, entries: entries, ends: ends,
      recordNumbers: recordNumbers, leading: leading,
      leadingEnd: contents.ends[leading - 1],
      validLength: contents.validLength, recordCount: contents.payloads.count, tornTail: contents.tornTail,
      pid: pid, startTime: startTime, modificationTime: modificationTime,
      writerAlive: pid > 0 && kill(pid, 0) == 0 && pid != getpid(),
      stepCount: closed ? 0 : steps + (depth > 0 && steps == 0 ? 1 : 0),
      changeCount: closed ? 0 : changes)
  }

  private static func classify(_ bytes: [UInt8], modificationTime: Double) -> Result<
    LeftoverJournal?, JournalError
  > {
    Result { () throws(JournalError) in try leftover(bytes, modificationTime: modificationTime) }
  }

  /// The pid of the session that wrote the log last.
  static func headerPID(_ bytes: [UInt8]) -> Int32? {
    (try? leftover(bytes, modificationTime: 0))??.pid
  }

  /// The whole file, read into one buffer of the size `fstat` gives (and grown if the
  /// file grows meanwhile), so a long log is not copied as it is read.
  static func readAll(_ file: FileDescriptor, fileSystem: any FileSystem) throws(SystemCallError) -> [UInt8] {
    let size = max(0, Int(try fileSystem.fstat(file).size))
    var bytes = [UInt8](repeating: 0, count: size + 1)
    var count = 0
    while true {
      if count == bytes.count { bytes += [UInt8](repeating: 0, count: max(1 << 16, bytes.count)) }
      let result = bytes.withUnsafeMutableBytes { raw in
        Result { () throws(SystemCallError) in
          try fileSystem.read(file, into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]))
        }
      }
      let read = try result.get()
      if read == 0 { break }
      count += read
    }
    bytes.removeLast(bytes.count - count)
    return bytes
  }

}

extension Journal {
  /// The header of the log beside `dataPath`, read without a lock and without reading the
  /// rest: what kind the file was last edited with (the kind choice's rule 3). `nil` when
  /// there is no log or its header cannot be read.
  static func peekHeader(forDataFile dataPath: String, fileSystem: any FileSystem) -> JournalEntry.Header? {
    let path = Journal.path(forDataFile: dataPath)
    guard let status = try? fileSystem.lstat(path), status.kind == .regularFile,
      let file = try? fileSystem.open(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW, mode: 0)
    else { return nil }
    defer { try? fileSystem.close(file) }
    let lead = JournalFraming.magic.count + JournalFraming.recordHeaderSize
    guard let start = try? readExactly(lead, from: file, fileSystem: fileSystem),
      Array(start[..<JournalFraming.magic.count]) == JournalFraming.magic
    else { return nil }
    let length = (0..<4).reduce(0) { $0 | Int(start[JournalFraming.magic.count + $1]) << (8 * $1) }
    guard length < 1 << 26, let payload = try? readExactly(length, from: file, fileSystem: fileSystem),
      case .header(let header)? = try? JournalEntry(payload: payload, record: 0)
    else { return nil }
    return header
  }

  private static func readExactly(_ count: Int, from file: FileDescriptor, fileSystem: any FileSystem)
    throws(SystemCallError) -> [UInt8]?
  {
    var bytes = [UInt8](repeating: 0, count: count)
    var offset = 0
    while offset < count {
      let result = bytes.withUnsafeMutableBytes { raw in
        Result { () throws(SystemCallError) in
          try fileSystem.read(file, into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...]))
        }
      }
      let read = try result.get()
      if read == 0 { return nil }
      offset += read
    }
    return bytes
  }
}
