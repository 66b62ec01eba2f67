import Glibc
import RecordKit

/// The crash-recovery journal of one data file: every change is appended here
/// before the shell shows anything or waits for input, so a killed process
/// loses nothing the user saw done.
///
/// - Beside the data file, hidden: `.tasks.json.recsh-journal`, mode 0600.
/// - Locked (an open-file-description lock) for the whole session: the lock
///   is also the "one writer at a time" rule. It stays on one file because the
///   journal is reset in place (`ftruncate`), never replaced.
/// - Appends are buffered; `write()` puts the buffer in the file (enough for a
///   killed process), `sync()` also flushes it to the disk (enough for a power
///   cut). The prompt syncs before every prompt; scripts sync at most every
///   second or every 1,000 steps, so a power cut can lose up to that much of a
///   script's work — never a killed process, never at the prompt.
/// - A final class: it owns a file descriptor and a lock.
public final class Journal {
  public let path: String
  let fileSystem: any FileSystem
  private let file: FileDescriptor
  /// What was appended and not yet written, with the counters an append moves: one
  /// stored property, because each access to a class's stored property is checked for
  /// exclusivity at run time, and every edit appends.
  private var pending = Pending()
  private var lastSync = Journal.now()
  /// Set when a write failed: the journal is off from then on, and the shell says so once.
  public private(set) var failure: SystemCallError?
  private(set) var reportedFailure = false

  /// How many of the live history's undo and redo steps a replay of this
  /// journal would also have; beyond them, an undo or redo is journaled as a snapshot.
  var replayUndoable = 0
  var replayRedoable = 0

  static let syncInterval = 1.0
  static let syncSteps = 1000
  /// Past this size the buffer is written even without output, so memory stays bounded.
  /// (256 KB: a `write` per few thousand piped edits costs nothing measurable, and
  /// the buffer is not counted against every history step, as 1 MB was.)
  static let bufferLimit = 1 << 18

  init(path: String, fileSystem: any FileSystem, file: FileDescriptor) {
    self.path = path
    self.fileSystem = fileSystem
    self.file = file
  }

  /// `.NAME.recsh-journal` in the data file's folder.
  public static func path(forDataFile dataPath: String) -> String {
    let slash = dataPath.lastIndex(of: "/")
    let folder = slash.map { String(dataPath[...$0]) } ?? ""
    let name = slash.map { String(dataPath[dataPath.index(after: $0)...]) } ?? dataPath
    return folder + "." + name + ".recsh-journal"
  }

  /// Whether anything beyond the header was recorded since the journal was (re)started.
  public var holdsChanges: Bool { pending.sequence > 1 }

  // MARK: Writing

  func append(_ entry: JournalEntry, isStep: Bool = true) {
    append(isStep: isStep) { $0 += entry.payload }
  }

  /// Appends a record whose payload `writePayload` appends to the buffer in
  /// place, framed as `JournalFraming.record` frames it (same bytes), without an
  /// intermediate array per record: the path of every edit.
  func append(isStep: Bool = true, payload writePayload: (inout [UInt8]) -> Void) {
    guard failure == nil else { return }
    if pending.append(isStep: isStep, payload: writePayload) >= Self.bufferLimit { write() }
  }

  /// Puts the buffer in the file: after this, a killed process loses nothing.
  public func write() {
    guard failure == nil, !pending.buffer.isEmpty else { return }
    do throws(SystemCallError) {
      try writeAll(pending.buffer)
      pending.buffer.removeAll(keepingCapacity: true)
    } catch {
      failure = error
    }
  }

  /// Writes and flushes to the disk: after this, a power cut loses nothing.
  public func sync() {
    write()
    guard failure == nil, pending.unsyncedSteps > 0 || Self.now() - lastSync > Self.syncInterval else {
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
  public func writeBatched() {
    write()
    let steps = pending.unsyncedSteps
    if steps >= Self.syncSteps || (steps > 0 && Self.now() - lastSync >= Self.syncInterval) {
      sync()
    }
  }

  /// The warning to show once after a write failed.
  public func takeFailureReport() -> String? {
    guard let failure, !reportedFailure else { return nil }
    reportedFailure = true
    return
      "cannot write the journal \"\(path)\": \(failure.summary) (\(failure.call.name)); crash recovery is off until the next save"
  }

  private func writeAll(_ bytes: [UInt8]) throws(SystemCallError) {
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

  /// Empties the journal and starts it again for `base` (after a clean save,
  /// or a new journal). In place, so the lock stays.
  ///
  /// `durably: false` leaves the new header to the first step's `fsync`: right for a
  /// journal that held no steps, where whatever a power cut leaves of the file (nothing,
  /// part of the header, the old stepless header) also holds no steps to recover. After
  /// a save the old journal's steps must not come back, so that reset is flushed.
  func reset(base: String?, kind: String, numbers: [NumberRun]? = nil, durably: Bool = true)
    throws(SystemCallError)
  {
    pending = Pending()
    failure = nil
    reportedFailure = false
    replayUndoable = 0
    replayRedoable = 0
    do throws(SystemCallError) {
      try fileSystem.ftruncate(file, length: 0)
      pending.buffer = JournalFraming.magic
      append(
        .header(base: base, pid: getpid(), time: Self.wallClock(), kind: kind, numbers: numbers),
        isStep: false)
      try writeAll(pending.buffer)
      pending.buffer.removeAll(keepingCapacity: true)
      if durably { try fileSystem.fsync(file) }
    } catch {
      // A journal that could not be started is off until the next save: nothing
      // is appended to a file whose beginning may be missing.
      pending.buffer.removeAll()
      failure = error
      reportedFailure = true
      throw error
    }
    lastSync = Self.now()
    pending.unsyncedSteps = 0
  }

  /// Continues a recovered journal: cuts a torn tail, appends after the last good record.
  func resume(validLength: Int, records: Int) throws(SystemCallError) {
    try fileSystem.ftruncate(file, length: Int64(validLength))
    pending.sequence = UInt64(records)
  }

  /// A normal exit: the journal goes (removed before its lock is released).
  public func remove() {
    try? fileSystem.unlink(path)
    try? fileSystem.close(file)
  }

  /// Leaves the journal in place (a crash-like end, or handing over): only closes it.
  public func abandon() {
    write()
    try? fileSystem.close(file)
  }

  /// For tests: end as a killed process would — the unwritten buffer is lost,
  /// the file stays, the lock goes with the descriptor.
  func simulateKill() {
    pending.buffer.removeAll()
    try? fileSystem.close(file)
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
    var buffer: [UInt8] = []
    var sequence: UInt64 = 0
    var unsyncedSteps = 0

    private static let emptyHeader = [UInt8](repeating: 0, count: JournalFraming.recordHeaderSize)

    /// Frames a record whose payload `writePayload` appends to the buffer in place, as
    /// `JournalFraming.record` frames it (same bytes); returns the buffer's size.
    mutating func append(isStep: Bool, payload writePayload: (inout [UInt8]) -> Void) -> Int {
      let start = buffer.count
      let header = JournalFraming.recordHeaderSize
      buffer.append(contentsOf: Self.emptyHeader)
      writePayload(&buffer)
      let length = UInt32(truncatingIfNeeded: buffer.count - start - header)
      let sequence = self.sequence
      buffer.withUnsafeMutableBytes { raw in
        raw.storeBytes(of: length.littleEndian, toByteOffset: start, as: UInt32.self)
        raw.storeBytes(of: sequence.littleEndian, toByteOffset: start + 8, as: UInt64.self)
        let crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[(start + 8)...]))
        raw.storeBytes(of: crc.littleEndian, toByteOffset: start + 4, as: UInt32.self)
      }
      self.sequence = sequence + 1
      if isStep { unsyncedSteps += 1 }
      return buffer.count
    }
  }
}
