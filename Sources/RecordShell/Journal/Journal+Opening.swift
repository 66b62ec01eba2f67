import Glibc
import RecordKit

/// A history log as read from disk: its header, its records, and where they end.
public struct LeftoverJournal: Equatable, Sendable {
  /// The log's bytes, for the backup a set-aside makes.
  var bytes: [UInt8]
  var header: JournalEntry.Header
  /// The start state's records, when the log keeps them: the base record's payload,
  /// whose first byte is a base mark (`JournalEntry.isBase`; kept as read, not copied again: a big
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
  var startTime: Double
  /// When the log was last written (seconds since 1970).
  public var modificationTime: Double
  /// Whether the process that wrote it is still running (another recsh would hold the lock).
  public var writerAlive: Bool
  /// How many entries came after the last save or session start and are not yet saved:
  /// the work a session that died left. Set by `JournalReplay`.
  var stepCount = 0
  /// How many edits are among them, for messages.
  public var changeCount = 0

  var base: String? { header.base }
}

/// What reading a data file's log at open found. Nothing is written or locked: the
/// `Journal` returned reaches the disk at the session's first change (`Journal.activate`).
enum JournalOpening {
  /// No log, or an empty one: the caller starts it (`Journal.start`).
  case fresh(Journal)
  /// A log with a history (and perhaps a dead session's unsaved steps): the caller reads it.
  case existing(Journal, LeftoverJournal)
  /// A log that cannot be read (damage in the middle, a newer format): never reset silently.
  case damaged(Journal, bytes: [UInt8], JournalError)
  /// No state folder to keep it in: crash recovery is off.
  case unavailable(String)
  /// It exists but cannot be read: the file is not opened, since the journal may hold
  /// unsaved work.
  case unreadable(SystemCallError)
  /// Something other than a regular file is where the log goes (a directory, a symbolic
  /// link, a named pipe): never opened, never followed; `activate` moves it aside to
  /// `backup` and starts the log afresh.
  case notAFile(Journal, FileStatus.Kind, backup: String)
}

/// Why the data file is not ours to edit now.
struct JournalLockedError: Error, Equatable, Sendable {
  var path: String
  var pid: Int32?
}

/// Why `Journal.activate` did not make the log ready for the first change.
enum JournalActivationError: Error, Equatable {
  /// Another recsh holds the log's lock: its process id, when its log names it.
  case locked(pid: Int32?)
  /// The log is not what this session read when it opened the file: another session
  /// wrote it since.
  case changedElsewhere
  /// The state folder is unsafe, or cannot be made.
  case folder(StateFolderError)
  /// The log cannot be opened or locked for another reason.
  case unavailable(SystemCallError)
  /// The history to set aside could not be copied to its backup (nothing was changed).
  case backup(StorageError)
}

extension Journal {
  /// What the log was when read at open: `activate` finds it so, or refuses.
  struct Seen: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modificationTime: Int64

    init(_ status: FileStatus) {
      (device, inode, size, modificationTime) = (
        status.device, status.inode, status.size, status.modificationTime
      )
    }
  }

  /// What `activate` must find where the log goes, and what it does first.
  struct Arrival {
    /// The data file, for messages.
    var dataPath: String
    /// The log as read at open; `nil`: there was none, so none may be there now but an
    /// empty one.
    var seen: Seen?
    /// The length the file is cut to before anything is appended (a torn tail, a log
    /// started afresh); `nil`: kept whole.
    var cut: Int?
    /// A log left beside the data file by an earlier recsh, moved in first.
    var movedFrom: String?
    /// Something that is not a log where the log goes, renamed to this path first.
    var moveAside: String?
    /// A history set aside first: where the backup goes, and its bytes.
    var backup: (path: String, bytes: [UInt8])?
  }

  /// Reads the log of `dataPath` in `folder` without locking or making anything: the
  /// log in the state folder, else one an earlier recsh left beside the data file
  /// (`.NAME.recsh-journal`, moved in at the first change). An unsafe folder is not read.
  static func read(forDataFile dataPath: String, in folder: StateFolder?, fileSystem: any FileSystem)
    -> JournalOpening
  {
    guard let folder else {
      return .unavailable("no state folder: neither HOME nor RECSH_STATE_DIR is set")
    }
    let path = folder.logPath(forDataFile: dataPath)
    var arrival = Arrival(dataPath: dataPath)
    switch folder.check(using: fileSystem) {
    case .unsafe:
      // Never read: `activate` refuses the first change, naming why.
      return .fresh(Journal(path: path, folder: folder, fileSystem: fileSystem, arrival: arrival))
    case .unexaminable(let error): return .unreadable(error)
    case .missing, .usable: break
    }
    var source = path
    let found: FileStatus?
    do throws(SystemCallError) {
      found = try fileSystem.lstat(path)
    } catch {
      guard error.code == ENOENT || error.code == ENOTDIR else { return .unreadable(error) }
      found = nil
    }
    if let status = found {
      guard status.kind == .regularFile else {
        arrival.moveAside = folder.backupPath(forLog: path, time: Int(wallClock()), using: fileSystem)
        return .notAFile(
          Journal(path: path, folder: folder, fileSystem: fileSystem, arrival: arrival), status.kind,
          backup: arrival.moveAside ?? path)
      }
    } else {
      let old = sidePath(forDataFile: dataPath, ending: ".recsh-journal")
      let status: FileStatus
      do throws(SystemCallError) {
        status = try fileSystem.lstat(old)
      } catch {
        guard error.code == ENOENT || error.code == ENOTDIR else { return .unreadable(error) }
        return .fresh(Journal(path: path, folder: folder, fileSystem: fileSystem, arrival: arrival))
      }
      guard status.kind == .regularFile else {
        return .fresh(Journal(path: path, folder: folder, fileSystem: fileSystem, arrival: arrival))
      }
      source = old
      arrival.movedFrom = old
    }
    let file: FileDescriptor
    do throws(SystemCallError) {
      file = try fileSystem.open(source, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW, mode: 0)
    } catch {
      return .unreadable(error)
    }
    defer { try? fileSystem.close(file) }
    let bytes: [UInt8]
    let status: FileStatus
    do throws(SystemCallError) {
      status = try fileSystem.fstat(file)
      bytes = try readAll(file, fileSystem: fileSystem)
    } catch {
      return .unreadable(error)
    }
    arrival.seen = Seen(status)
    let journal = Journal(path: path, folder: folder, fileSystem: fileSystem, arrival: arrival)
    switch classify(bytes, modificationTime: Double(status.modificationTime) / 1e9) {
    case .success(let log?):
      journal.writesCompactSteps = log.header.format >= JournalEntry.compactStepFormat
      return .existing(journal, log)
    case .failure(let error): return .damaged(journal, bytes: bytes, error)
    case .success(nil): return .fresh(journal)
    }
  }

  /// Makes the log ready for the session's first change: the state folder made (0700) and
  /// checked, a log an earlier recsh left beside the data file moved in, the log opened
  /// (made when missing) and locked, checked to be what `read` found, a history to set
  /// aside copied to its backup, the file cut where the session started it afresh, and
  /// what the session appended so far written (and flushed with the first step's flush). Returns the notes to show
  /// (a move, a backup removed). Does nothing when already active.
  func activate() throws(JournalActivationError) -> [String] {
    guard var arrival else { return [] }
    do throws(StateFolderError) {
      try folder.prepare(using: fileSystem)
    } catch {
      throw .folder(error)
    }
    var notes: [String] = []
    if let old = arrival.movedFrom {
      guard let status = try? fileSystem.lstat(old), Seen(status) == arrival.seen,
        (try? fileSystem.lstat(path)) == nil
      else { throw .changedElsewhere }
      do throws(StateFolderError) {
        try folder.moveIn(old, to: path, using: fileSystem)
      } catch {
        throw .folder(error)
      }
      guard let moved = try? fileSystem.lstat(path) else { throw .changedElsewhere }
      arrival.seen = Seen(moved)
      notes.append(
        "moved the history of \"\(arrival.dataPath)\" from \"\(old)\" into recsh's state folder, as \"\(path)\""
      )
    }
    if let aside = arrival.moveAside {
      do throws(SystemCallError) {
        try fileSystem.rename(path, to: aside)
      } catch {
        throw .unavailable(error)
      }
    }
    let file = try openLocked()
    do throws(JournalActivationError) {
      let status: FileStatus
      do throws(SystemCallError) {
        status = try fileSystem.fstat(file)
      } catch {
        throw .unavailable(error)
      }
      if let seen = arrival.seen, Seen(status) != seen { throw .changedElsewhere }
      if arrival.seen == nil && status.size != 0 { throw .changedElsewhere }
      if let backup = arrival.backup {
        do throws(StorageError) {
          try AtomicFile.save(bytes: backup.bytes, to: backup.path, using: fileSystem)
        } catch {
          throw .backup(error)
        }
        notes += folder.pruneBackups(ofLog: path, using: fileSystem)
      }
      if let cut = arrival.cut, Int64(cut) < status.size {
        do throws(SystemCallError) {
          try fileSystem.ftruncate(file, length: Int64(cut))
        } catch {
          throw .unavailable(error)
        }
      }
    } catch {
      try? fileSystem.close(file)
      throw error
    }
    self.file = file
    self.arrival = nil
    // Written, not flushed: the log is flushed as every step is (before the prompt, or
    // batched in a script). A flush here would wait for the file system's journal, which
    // may hold a just-written data file's blocks, on the first edit's path.
    write()
    return notes
  }

  /// Takes the log's lock, trying `lockAttempts` times 5 ms apart.
  private func lock(_ file: FileDescriptor) throws(SystemCallError) {
    var attempt = 1
    while true {
      do throws(SystemCallError) {
        try fileSystem.lockExclusively(file)
        return
      } catch {
        guard error.code == EAGAIN || error.code == EACCES, attempt < Self.lockAttempts else { throw error }
        attempt += 1
        usleep(5000)
      }
    }
  }

  /// How many times `activate` tries the lock before it says another recsh holds it: once.
  /// The tests raise it: other tests of their process start child processes, and between
  /// `fork` and `exec` a child holds copies of every descriptor, and with them the lock
  /// of a session that has just ended. recsh starts no processes, so that moment exists
  /// in tests only.
  nonisolated(unsafe) static var lockAttempts = 1

  /// Opens the log at `path` (made, 0600, when missing) and takes its lock; another
  /// recsh holding it is `.locked` with its process id.
  private func openLocked() throws(JournalActivationError) -> FileDescriptor {
    for _ in 0..<3 {
      let file: FileDescriptor
      do throws(SystemCallError) {
        file = try fileSystem.open(
          path, flags: O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, mode: 0o600)
      } catch {
        throw .unavailable(error)
      }
      do throws(SystemCallError) {
        try lock(file)
      } catch {
        let holder = try? Self.readAll(file, fileSystem: fileSystem)
        try? fileSystem.close(file)
        if error.code == EAGAIN || error.code == EACCES { throw .locked(pid: holder.flatMap(Self.headerPID)) }
        throw .unavailable(error)
      }
      // The path may have been replaced (a compaction) or unlinked (a normal exit without
      // history) between open and lock: then it is not the log any more; try again.
      let opened: FileStatus
      let current: FileStatus
      do throws(SystemCallError) {
        opened = try fileSystem.fstat(file)
        current = try fileSystem.lstat(path)
      } catch {
        try? fileSystem.close(file)
        if error.code == ENOENT { continue }
        throw .unavailable(error)
      }
      guard opened.device == current.device, opened.inode == current.inode else {
        try? fileSystem.close(file)
        continue
      }
      return file
    }
    // Three times the log was replaced between our open and our lock (other recsh
    // processes starting and ending): EAGAIN, "try again", is what that is.
    throw .unavailable(SystemCallError(.open, code: EAGAIN, path: path))
  }

}

extension Journal {
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
      if JournalEntry.isBase(contents.payloads[index].first) {
        // Written once (the log's start records): before the first step, or once compressed
        // away from the edit path, after steps.
        guard base == nil else {
          throw .badEntry(record: index, reason: "a second copy of the start records")
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
  /// The header of the log of `dataPath`, read without a lock and without reading the
  /// rest: what kind the file was last edited with (the kind choice's rule 3). `nil` when
  /// there is no log or its header cannot be read.
  static func peekHeader(forDataFile dataPath: String, in folder: StateFolder?, fileSystem: any FileSystem)
    -> JournalEntry.Header?
  {
    guard let folder, folder.check(using: fileSystem) == .usable else { return nil }
    let path = folder.logPath(forDataFile: dataPath)
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
