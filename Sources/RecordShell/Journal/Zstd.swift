import CZstd
import Dispatch
import Glibc

/// zstd compression of a history's start records (`JournalEntry.base`): the file's bytes
/// a log starts from, kept at a fraction of their size (a quarter or less for JSON
/// records at the default level; `docs/PERFORMANCE.md` has the figures).
///
/// Each call makes and frees its own context (`ZSTD_compress`, `ZSTD_decompress`, or a
/// streaming context within `compress(_:level:passing:)`), so no handle outlives a call
/// and nothing is shared between threads — the compression runs on a thread of its own
/// (`BaseCompression`) while the session edits.
enum Zstd {
  /// The level the start records are compressed at: zstd's default (3), about 230 MB/s
  /// on one core here; level 1 is faster but kept more than a quarter of the bench's
  /// generated tasks.
  static let level: Int32 = 3

  /// `bytes` as one zstd frame (which records its content size). Costs one pass over the
  /// bytes and an output buffer of `ZSTD_compressBound`, left uninitialized, so that only
  /// the pages the frame is written to become resident (a zero-filled one would cost the
  /// whole bound in memory, about the input's size); the frame is then copied out at its size.
  static func compress(_ bytes: [UInt8], level: Int32 = level) -> [UInt8] {
    bytes.withUnsafeBytes { compress($0, level: level) }
  }

  /// `compress(_:level:)` of bytes in place (a mapped file's).
  static func compress(_ source: UnsafeRawBufferPointer, level: Int32 = level) -> [UInt8] {
    let bound = ZSTD_compressBound(source.count)
    let output = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bound), alignment: 16)
    defer { output.deallocate() }
    let written = ZSTD_compress(output.baseAddress, bound, source.baseAddress, source.count, level)
    // Compression into a buffer of the bound cannot fail but for memory: then the frame
    // is not made, and the caller keeps the bytes uncompressed (an empty result).
    guard ZSTD_isError(written) == 0 else { return [] }
    return Array(UnsafeRawBufferPointer(rebasing: output[..<written]))
  }

  /// `compress(_:level:)` of bytes in place read a piece at a time (1 MiB), calling
  /// `passed` with each piece once zstd has taken it (copied into its own window), so the
  /// caller may hash it and let its pages go: the whole input is never resident at once.
  /// One frame that records its content size, as `compress` makes; empty when zstd fails
  /// (for memory). The context is made and freed within the call.
  static func compress(
    _ source: UnsafeRawBufferPointer, level: Int32 = level, passing passed: (UnsafeRawBufferPointer) -> Void
  ) -> [UInt8] {
    guard let context = ZSTD_createCCtx() else { return [] }
    defer { ZSTD_freeCCtx(context) }
    guard ZSTD_isError(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)) == 0,
      ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(context, UInt64(source.count))) == 0
    else { return [] }
    let bound = ZSTD_compressBound(source.count)
    let output = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bound), alignment: 16)
    defer { output.deallocate() }
    var out = ZSTD_outBuffer(dst: output.baseAddress, size: bound, pos: 0)
    var offset = 0
    repeat {
      let end = min(source.count, offset + (1 << 20))
      let piece = UnsafeRawBufferPointer(rebasing: source[offset..<end])
      var input = ZSTD_inBuffer(src: piece.baseAddress, size: piece.count, pos: 0)
      let last = end == source.count
      while true {
        let left = ZSTD_compressStream2(context, &out, &input, last ? ZSTD_e_end : ZSTD_e_continue)
        guard ZSTD_isError(left) == 0 else { return [] }
        // Into a buffer of the bound, zstd never runs out of room: a piece is taken whole,
        // and the last call ends the frame.
        if last ? left == 0 : input.pos == input.size { break }
      }
      passed(piece)
      offset = end
    } while offset < source.count
    return Array(UnsafeRawBufferPointer(rebasing: output[..<out.pos]))
  }

  /// The bytes of one zstd frame `compress` made. Throws when the frame is damaged or
  /// does not say its size, or its size is over `limit` (the journal's record limit:
  /// a damaged size must not ask for terabytes).
  static func decompress(_ frame: ArraySlice<UInt8>, limit: Int = 1 << 32) throws(ZstdError) -> [UInt8] {
    let size = frame.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
    // ZSTD_CONTENTSIZE_UNKNOWN and ZSTD_CONTENTSIZE_ERROR are the two largest values.
    guard size < UInt64.max - 1 else { throw ZstdError(reason: "not a zstd frame with its size") }
    guard size <= UInt64(limit) else { throw ZstdError(reason: "a frame of \(size) bytes is over the limit") }
    var output = [UInt8](repeating: 0, count: Int(size))
    let written = output.withUnsafeMutableBytes { out in
      frame.withUnsafeBytes { source in
        ZSTD_decompress(out.baseAddress, out.count, source.baseAddress, source.count)
      }
    }
    if ZSTD_isError(written) != 0 {
      throw ZstdError(reason: String(cString: ZSTD_getErrorName(written)))
    }
    guard written == Int(size) else { throw ZstdError(reason: "the frame holds fewer bytes than it says") }
    return output
  }
}

/// Why a zstd frame could not be read back: zstd's own words.
struct ZstdError: Error, Equatable {
  var reason: String
}

/// Compresses a log's start records on a thread of its own, so that a session's first
/// edit costs what any other edit costs: the journal takes the frame when it is done
/// (`Journal.appendReadyBase`), and waits for it only before a save or a normal exit.
///
/// `@unchecked Sendable`: `frame` is written once, by the compressing thread, before it
/// leaves `done`; it is read only after `done` was waited for (`wait`, or `isFinished`),
/// which orders the write before the read.
final class BaseCompression: @unchecked Sendable {
  /// The content hash of the records being compressed.
  let hash: String
  private let done = DispatchGroup()
  private var frame: [UInt8] = []
  private var records: [UInt8]
  /// The mapped file the records are read from, let go by `wait()` (on the waiting thread).
  private var mapped: HeldMapping?
  /// The mapped file's bytes, read by the compressing thread until it leaves `done`.
  private let source: UnsafeRawBufferPointer?
  /// Whether the mapped file's bytes were not the records of `hash` (another program wrote
  /// it in place, or truncated it) when they were read.
  private var gone = false

  /// Starts compressing `records` (whose content hash is `hash`): on a thread of its own
  /// when `inBackground`, else before it returns. The array is shared, not copied.
  init(_ records: [UInt8], hash: String, inBackground: Bool = true) {
    self.hash = hash
    self.records = records
    source = nil
    done.enter()
    guard inBackground else {
      compress()
      return
    }
    DispatchQueue.global(qos: .utility).async { [self] in compress() }
  }

  /// Starts compressing the bytes of `mapped`, a held data file (`HeldFile.mapForReading`),
  /// read where they are: no copy of the file is made, on the edit path or off it. They
  /// are checked against `hash` as they are read, under the mapping guard (a truncation
  /// reads zeros, not a crash; one guard at a time in the process, so another thread's
  /// load or save waits for this one); bytes that are not the records of `hash` give no
  /// records (`wait()` says `nil`).
  init(mapped: HeldMapping, hash: String, inBackground: Bool = true) {
    self.hash = hash
    self.records = []
    self.mapped = mapped
    source = mapped.bytes
    done.enter()
    guard inBackground else {
      compressMapped()
      return
    }
    DispatchQueue.global(qos: .utility).async { [self] in compressMapped() }
  }

  private func compress() {
    frame = Zstd.compress(records)
    if !frame.isEmpty { records = [] }
    done.leave()
  }

  private func compressMapped() {
    guard let bytes = source else {
      done.leave()
      return
    }
    let (same, faulted) = MappingFaultGuard.run(over: bytes) { () -> Bool in
      var hasher = ContentHasher()
      frame = Zstd.compress(bytes) { piece in
        hasher.combine(piece)
        // Taken by zstd and hashed: its pages may go (read again from the file, should
        // anything look back). `madvise` itself, not the file system seam, whose call log
        // and fault injection are for the session's thread; a failure only keeps pages.
        let pageSize = PassedPages.pageSize
        if let base = piece.baseAddress, case let start = Int(bitPattern: base),
          case let first = (start + pageSize - 1) / pageSize * pageSize,
          case let last = (start + piece.count) / pageSize * pageSize, last > first
        {
          madvise(UnsafeMutableRawPointer(bitPattern: first), last - first, MADV_DONTNEED)
        }
      }
      if frame.isEmpty {
        // zstd failed (for memory): the records go in uncompressed, read and hashed whole.
        hasher = ContentHasher()
        hasher.combine(bytes)
        records = Array(bytes)
      }
      return hasher.finalize() == hash
    }
    if !same || faulted {
      (gone, frame, records) = (true, [], [])
    }
    done.leave()
  }

  /// Whether the frame is ready, without waiting.
  var isFinished: Bool { done.wait(timeout: .now()) == .success }

  /// Waits for the compression; returns the frame, or the records themselves when zstd
  /// could not compress them (`compressed` false); `nil` when the mapped file's bytes were
  /// not the records (then the log goes on without them, as a killed session's does). Lets
  /// the mapped file go.
  func wait() -> (bytes: [UInt8], compressed: Bool)? {
    done.wait()
    // A write in place while the file was read could give a frame of other bytes than
    // those hashed: the file's identity, asked here on the waiting thread, says so.
    if let mapped, !mapped.fileUnchanged() { (gone, frame, records) = (true, [], []) }
    mapped?.release()
    mapped = nil
    guard !gone else { return nil }
    return frame.isEmpty ? (records, false) : (frame, true)
  }
}
