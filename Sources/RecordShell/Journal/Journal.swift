import Glibc
import RecordKit

/// The history log of one data file, which is also its crash journal: every change is
/// appended here before the shell shows anything or waits for input, so a killed process
/// loses nothing the user saw done; and it stays after a normal exit (marked closed), so
/// the next session has the undo history back (`JournalEntry` lists what it records).
///
/// - In recsh's state folder (`StateFolder`), never beside the data file:
///   `tasks.json-HASH.log`, mode 0600.
/// - Read without a lock when the file is opened, and written first at the session's
///   first change (`activate`): then it is made, locked (an open-file-description lock,
///   for the rest of the session: the "one writer at a time" rule) and checked to be what
///   was read; until then what the session would append waits in memory, so a session
///   that changes nothing writes nothing. A compaction replaces the file by a rename, and
///   takes the lock on the new file before it is renamed into place.
/// - Appends are buffered; `write()` puts the buffer in the file (enough for a
///   killed process), `sync()` also flushes it to the disk (enough for a power
///   cut). The prompt syncs before every prompt; scripts sync at most every
///   second or every 1,000 steps, so a power cut can lose up to that much of a
///   script's work — never a killed process, never at the prompt.
/// - A final class: it owns a file descriptor and a lock.
public final class Journal {
  let path: String
  /// The state folder the log is in (made at activation when missing), where its
  /// backups go too.
  let folder: StateFolder
  let fileSystem: any FileSystem
  /// The log's descriptor once `activate` opened and locked it; `nil` before.
  var file: FileDescriptor?
  /// What `activate` must find and do; `nil` once active.
  var arrival: Arrival?
  /// The start records being compressed (`startBase`); `nil` when none are.
  private var pendingBase: BaseCompression?
  /// Start records up to this size are compressed and written at once (well under a
  /// millisecond), so a small file's log holds them from its first step; larger ones on a
  /// thread of their own. Tests lower it to send every base to the thread.
  var inlineBaseLimit = 256 << 10
  /// Whether start records are being compressed and not yet in the log.
  var isCompressingBase: Bool { pendingBase != nil }
  /// What was appended and not yet written, with the counters an append moves: one
  /// stored property, because each access to a class's stored property is checked for
  /// exclusivity at run time, and every edit appends.
  private var pending = Pending()
  private var lastSync = Journal.now()
  /// Set when a write failed: the journal is off from then on, and the shell says so once.
  private(set) var failure: SystemCallError?
  private(set) var reportedFailure = false

  /// Whether steps go in as compact steps (`EditStep`): a log of this version's format.
  /// A log of an older one, which this session goes on with, gets JSON steps as that
  /// format has them, so that the recsh that wrote it can still read it. Set from the
  /// header read (`read`) or written (`start`).
  var writesCompactSteps = true

  /// The second of the last `time` entry: a step in a new second appends one first.
  var loggedSecond: Double = -1

  static let syncInterval = 1.0
  static let syncSteps = 1000
  /// Past this size the buffer is written even without output, so memory stays bounded.
  /// (256 KB: a `write` per few thousand piped edits costs nothing measurable, and
  /// the buffer is not counted against every history step, as 1 MB was.)
  static let bufferLimit = 1 << 18

  /// A log that is not on disk yet as this session will write it: `activate` makes it so.
  init(path: String, folder: StateFolder, fileSystem: any FileSystem, arrival: Arrival) {
    self.path = path
    self.folder = folder
    self.fileSystem = fileSystem
    self.arrival = arrival
  }

  /// Whether the log is open and locked: the session made its first change.
  var isActive: Bool { file != nil }

  /// The entry a session that begins writing appends.
  static func openEntry(kind: String) -> JournalEntry { .open(pid: getpid(), time: wallClock(), kind: kind) }

  /// `.NAME` + `ending` in the data file's folder: where an earlier recsh kept what
  /// belonged to a data file (its log, a merge's conflicts). Read only to move it into the
  /// state folder.
  static func sidePath(forDataFile dataPath: String, ending: String) -> String {
    let slash = dataPath.lastIndex(of: "/")
    let folder = slash.map { String(dataPath[...$0]) } ?? ""
    let name = slash.map { String(dataPath[dataPath.index(after: $0)...]) } ?? dataPath
    return folder + "." + name + ending
  }

  /// Sets the log's history aside as a backup, `STEM.TIME.bak` in the state folder (the
  /// oldest beyond three removed): its `bytes` now when active, else at `activate`, since
  /// a session that changes nothing writes nothing. Returns the backup's path.
  func setAside(_ bytes: [UInt8]) throws(StorageError) -> (path: String, notes: [String]) {
    let backup = folder.backupPath(forLog: path, time: Int(Self.wallClock()), using: fileSystem)
    guard file != nil else {
      arrival?.backup = (backup, bytes)
      return (backup, [])
    }
    try AtomicFile.save(bytes: bytes, to: backup, using: fileSystem)
    return (backup, folder.pruneBackups(ofLog: path, using: fileSystem))
  }

  /// How many records the log holds (written or not).
  var recordCount: Int { Int(pending.sequence) }
  /// Whether the log still needs its start records: they are started when the log becomes
  /// active (`Session.startBaseIfNeeded`), so a session that changes nothing costs none.
  var needsBase = false
  /// Whether steps were appended since the last save or session start.
  public private(set) var holdsChanges = false

  // MARK: Writing

  func append(_ entry: JournalEntry, isStep: Bool = true) {
    switch entry {
    case .save, .open: holdsChanges = false
    default: if isStep { holdsChanges = true }
    }
    append(isStep: isStep) { $0 += entry.payload }
  }

  /// Appends a record whose payload `writePayload` appends to the buffer in
  /// place, framed as `JournalFraming.record` frames it (same bytes), without an
  /// intermediate array per record: the path of every edit.
  func append(isStep: Bool = true, payload writePayload: (inout [UInt8]) -> Void) {
    guard failure == nil else { return }
    if isStep { holdsChanges = true }
    if pending.append(isStep: isStep, payload: writePayload) >= Self.bufferLimit { write() }
  }

  /// Starts writing the start records (`JournalEntry.base`): a copy of the data file
  /// whose content hash is `hash`, compressed with zstd on a thread of its own
  /// (`BaseCompression`), so the edit that needs them costs no copy and no compression.
  /// The frame is appended when done (`appendReadyBase`), after whatever steps came
  /// meanwhile; a save and a normal exit wait for it. Until it is in the log, a crash
  /// loses nothing: the data file itself, unsaved since, holds those records (its hash is
  /// the header's `base`), and the next session's first edit starts them again.
  func startBase(_ records: [UInt8], hash: String) {
    guard failure == nil else { return }
    pendingBase = BaseCompression(records, hash: hash, inBackground: records.count > inlineBaseLimit)
    if records.count <= inlineBaseLimit { appendReadyBase(wait: true) }
  }

  /// Where start records come from: bytes in memory, or a held data file's, mapped
  /// (`HeldFile.mapForReading`).
  enum BaseSource {
    case bytes([UInt8])
    case mapped(HeldMapping)
  }

  /// `startBase(_:hash:)` from `source`: a held data file is read and checked against
  /// `hash` where it is, with no copy; should its bytes not be those records any more,
  /// the log goes on without them (`appendReadyBase`).
  func startBase(_ source: BaseSource, hash: String) {
    switch source {
    case .bytes(let records):
      startBase(records, hash: hash)
    case .mapped(let mapped):
      guard failure == nil else {
        mapped.release()
        return
      }
      let inline = mapped.bytes.count <= inlineBaseLimit
      pendingBase = BaseCompression(mapped: mapped, hash: hash, inBackground: !inline)
      if inline { appendReadyBase(wait: true) }
    }
  }

  /// Appends the start records once compressed: when ready (`wait` false, as every write
  /// does), or after waiting for them (before a save, a normal exit). Written straight
  /// from the frame after the buffer, framed as `JournalFraming.record` frames it (its
  /// CRC-32 covers the mark and the hash; the records are checked by their hash).
  func appendReadyBase(wait: Bool) {
    guard let compression = pendingBase, wait || compression.isFinished else { return }
    pendingBase = nil
    // Records gone before they were read (the file written in place meanwhile): the log
    // goes on without them, as a session killed before they were in it leaves it; the
    // next session starts them again, or sets the history aside.
    guard let (bytes, compressed) = compression.wait(), failure == nil else { return }
    let sequence = pending.sequence
    let prefix = JournalEntry.basePrefix(hash: compression.hash, compressed: compressed)
    let head =
      JournalFraming.head(sequence: sequence, length: prefix.count + bytes.count, checked: prefix[...])
      + prefix
    pending.sequence = sequence + 1
    guard file != nil else {
      // Not on disk yet (a step made as the file is opened): it waits with the rest.
      pending.append(framed: head)
      pending.append(framed: bytes)
      return
    }
    writeBuffer()
    do throws(SystemCallError) {
      try writeAll(head)
      try writeAll(bytes)
    } catch {
      failure = error
    }
  }

  /// Puts the buffer in the file, and the start records once compressed: after this, a
  /// killed process loses nothing.
  public func write() {
    writeBuffer()
    if pendingBase != nil { appendReadyBase(wait: false) }
  }

  private func writeBuffer() {
    guard file != nil, failure == nil, !pending.buffer.isEmpty else { return }
    do throws(SystemCallError) {
      try writeAll(pending.sealed())
      pending.empty(keepingCapacity: true)
    } catch {
      failure = error
    }
  }

  /// Writes and flushes to the disk: after this, a power cut loses nothing. `force`
  /// flushes even when no step came since the last flush (a save's entry).
  func sync(force: Bool = false) {
    write()
    guard let file, failure == nil,
      force || pending.unsyncedSteps > 0 || Self.now() - lastSync > Self.syncInterval
    else {
      return
    }
    do throws(SystemCallError) {
      try fileSystem.fsync(file)
      pending.unsyncedSteps = 0
      lastSync = Self.now()
    } catch {
      failure = error
    }
  }

  /// Writes, and syncs when a second or 1,000 steps have passed since the last sync (scripts).
  func writeBatched() {
    write()
    let steps = pending.unsyncedSteps
    if steps >= Self.syncSteps || (steps > 0 && Self.now() - lastSync >= Self.syncInterval) {
      sync()
    }
  }

  /// The warning to show once after a write failed.
  func takeFailureReport() -> String? {
    guard let failure, !reportedFailure else { return nil }
    reportedFailure = true
    return
      "cannot write the journal \"\(path)\": \(failure.summary) (\(failure.call.name)); crash recovery is off until the next save"
  }

  private func writeAll(_ bytes: [UInt8]) throws(SystemCallError) {
    guard let file else { throw SystemCallError(.write, code: EBADF, path: path) }
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(SystemCallError) in
        var offset = 0
        while offset < raw.count {
          let written = try fileSystem.write(file, from: UnsafeRawBufferPointer(rebasing: raw[offset...]))
          guard written > 0 else { throw SystemCallError(.write, code: EIO, path: path) }
          offset += written
        }
      }
    }
    try result.get()
  }

  // MARK: Life cycle

  /// Empties the log and starts it again with `header`: a new log, `history clear`, a log
  /// set aside. In place, so the lock stays; flushed to the disk before it returns. Before
  /// `activate`, only in memory: the log is emptied then.
  func start(_ header: JournalEntry.Header) throws(SystemCallError) {
    pendingBase = nil
    pending = Pending()
    failure = nil
    reportedFailure = false
    loggedSecond = -1
    writesCompactSteps = header.format >= JournalEntry.compactStepFormat
    pending.append(framed: JournalFraming.magic)
    append(.header(header), isStep: false)
    guard let file else {
      arrival?.cut = 0
      return
    }
    do throws(SystemCallError) {
      try fileSystem.ftruncate(file, length: 0)
      try writeAll(pending.sealed())
      pending.empty(keepingCapacity: true)
      try fileSystem.fsync(file)
    } catch {
      // A log that could not be started is off until the next save: nothing
      // is appended to a file whose beginning may be missing.
      pending.empty()
      failure = error
      reportedFailure = true
      throw error
    }
    lastSync = Self.now()
    pending.unsyncedSteps = 0
  }

  /// Replaces the log by `records` (a compaction): written to a temporary file beside it,
  /// locked, flushed, then renamed over the log, so a crash at any point leaves either
  /// the old log or the new one whole. The lock moves to the new file.
  func replace(with records: [JournalEntry]) throws(SystemCallError) {
    guard let file else { throw SystemCallError(.write, code: EBADF, path: path) }
    // The new log has its own start records.
    pendingBase = nil
    write()
    let temporary = path + ".compacting"
    try? fileSystem.unlink(temporary)
    let fresh = try fileSystem.open(
      temporary, flags: O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, mode: 0o600)
    var bytes = JournalFraming.magic
    for (sequence, record) in records.enumerated() {
      bytes += JournalFraming.record(sequence: UInt64(sequence), payload: record.payload)
    }
    do throws(SystemCallError) {
      try fileSystem.lockExclusively(fresh)
      let old = file
      self.file = fresh
      do throws(SystemCallError) {
        try writeAll(bytes)
        try fileSystem.fsync(fresh)
        try fileSystem.rename(temporary, to: path)
      } catch {
        self.file = old
        throw error
      }
      try? fileSystem.close(old)
    } catch {
      try? fileSystem.close(fresh)
      try? fileSystem.unlink(temporary)
      throw error
    }
    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    if let directory = try? fileSystem.openDirectory(folder.isEmpty ? "/" : folder) {
      try? fileSystem.fsync(directory)
      try? fileSystem.close(directory)
    }
    pending = Pending()
    pending.sequence = UInt64(records.count)
    loggedSecond = -1
    lastSync = Self.now()
    // A log written whole again works again after a failed write.
    failure = nil
    reportedFailure = false
  }

  /// Makes this log, active and just made for a "save as", a byte copy of `other`'s (whose
  /// start records are waited for first), continuing its record numbers: the history goes
  /// on with the new file. Copied in 1 MiB pieces; flushed to the disk before it returns.
  func copy(from other: Journal) throws(SystemCallError) {
    other.appendReadyBase(wait: true)
    other.write()
    if let failure = other.failure { throw failure }
    guard let file else { throw SystemCallError(.write, code: EBADF, path: path) }
    let source = try fileSystem.open(other.path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW, mode: 0)
    defer { try? fileSystem.close(source) }
    try fileSystem.ftruncate(file, length: 0)
    pending = Pending()
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let result = chunk.withUnsafeMutableBytes { raw in
        Result { () throws(SystemCallError) in try fileSystem.read(source, into: raw) }
      }
      let count = try result.get()
      if count == 0 { break }
      try writeAll(Array(chunk[..<count]))
    }
    try fileSystem.fsync(file)
    pending.sequence = other.pending.sequence
    loggedSecond = other.loggedSecond
    needsBase = other.needsBase
    failure = nil
  }

  /// Cuts the log after its first `length` bytes, holding `records` records (`--discard-journal`
  /// keeps the history up to the last save and sets aside only what came after). Before
  /// `activate`, the cut is made then.
  func truncate(toLength length: Int, records: Int) throws(SystemCallError) {
    pending = Pending()
    pending.sequence = UInt64(records)
    loggedSecond = -1
    guard let file else {
      arrival?.cut = length
      return
    }
    try fileSystem.ftruncate(file, length: Int64(length))
    try fileSystem.fsync(file)
  }

  /// Continues a log read back: a torn tail is cut (at `activate`), appends go after the
  /// last good record.
  func resume(validLength: Int, records: Int) {
    arrival?.cut = validLength
    pending.sequence = UInt64(records)
  }

  /// Appends a `time` entry when `time` is in a later second than the last one logged.
  func noteTime(_ time: Double) {
    let second = time.rounded(.down)
    guard second > loggedSecond else { return }
    loggedSecond = second
    append(.time(second), isStep: false)
  }

  /// A normal exit: the log is marked closed and flushed, and stays for the next session.
  /// A log never activated is left as it was.
  public func close() {
    guard let file else { return }
    appendReadyBase(wait: true)
    append(.close(Self.wallClock()), isStep: false)
    sync()
    try? fileSystem.close(file)
    self.file = nil
  }

  /// A normal exit with keeping history turned off: the log goes (removed before its lock
  /// is released). A log never activated is left as it was.
  func remove() {
    pendingBase = nil
    guard let file else { return }
    try? fileSystem.unlink(path)
    try? fileSystem.close(file)
    self.file = nil
  }

  /// Leaves the journal in place (a crash-like end, or handing over): only closes it.
  public func abandon() {
    write()
    guard let file else { return }
    try? fileSystem.close(file)
    self.file = nil
  }

  /// For tests: end as a killed process would — the unwritten buffer is lost,
  /// the file stays, the lock goes with the descriptor.
  func simulateKill() {
    pending.empty()
    pendingBase = nil
    guard let file else { return }
    try? fileSystem.close(file)
    self.file = nil
  }

  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  static func wallClock() -> Double { Double(time(nil)) }
}

extension Journal {
  /// The journal's unwritten records and its counters.
  fileprivate struct Pending {
    /// The framed records not yet written. Those `append` framed from `unchecked` on
    /// have no checksum yet; `seal` fills them in.
    private(set) var buffer: [UInt8] = []
    /// Where the first record without its checksum starts; `nil` when every record has one.
    private var unchecked: Int?
    var sequence: UInt64 = 0
    var unsyncedSteps = 0

    /// Frames a record whose payload `writePayload` appends to the buffer in place, as
    /// `JournalFraming.record` frames it once `seal` has filled in its checksum; returns
    /// the buffer's size.
    ///
    /// The checksum waits for `seal`, which the buffer's write calls: one pass over a few
    /// thousand records keeps the CRC's tables in the cache, where a checksum for each edit
    /// found them evicted by the edit between (docs/PERFORMANCE.md).
    mutating func append(isStep: Bool, payload writePayload: (inout [UInt8]) -> Void) -> Int {
      let start = buffer.count
      let header = JournalFraming.recordHeaderSize
      // The header's room, filled below: zeros from the stack (a shared array of them was
      // retained and released on every record).
      withUnsafeBytes(of: (UInt64(0), UInt64(0))) { zeros in
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: zeros[..<header]))
      }
      writePayload(&buffer)
      let length = UInt32(truncatingIfNeeded: buffer.count - start - header)
      let sequence = self.sequence
      buffer.withUnsafeMutableBytes { raw in
        raw.storeBytes(of: length.littleEndian, toByteOffset: start, as: UInt32.self)
        raw.storeBytes(of: sequence.littleEndian, toByteOffset: start + 8, as: UInt64.self)
      }
      if unchecked == nil { unchecked = start }
      self.sequence = sequence + 1
      if isStep { unsyncedSteps += 1 }
      return buffer.count
    }

    /// Fills in the checksum of every record `append` framed since the last seal: after
    /// this, the buffer is whole records, each as `JournalFraming.record` makes it.
    mutating func seal() {
      guard let first = unchecked else { return }
      unchecked = nil
      buffer.withUnsafeMutableBytes { raw in
        var start = first
        while start < raw.count { start = JournalFraming.fillChecksum(ofRecordAt: start, in: raw) }
      }
    }

    /// The buffer, sealed (`seal`): what goes in the file.
    mutating func sealed() -> [UInt8] {
      seal()
      return buffer
    }

    /// Appends bytes that are whole records already (or the log's magic), after the
    /// records before them are sealed.
    mutating func append(framed bytes: [UInt8]) {
      seal()
      buffer += bytes
    }

    /// Forgets what was not written (its records stay counted).
    mutating func empty(keepingCapacity: Bool = false) {
      buffer.removeAll(keepingCapacity: keepingCapacity)
      unchecked = nil
    }
  }
}
