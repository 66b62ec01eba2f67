import Dispatch
import Glibc
import RecordKit

/// A data file on disk: read through the storage seam and decoded, or a new
/// (missing) file that the first save creates; and records encoded and saved to one.
public enum DataFile<Root: Record> {
  /// Runs a save's parts on the machine's cores (libdispatch's pool, the calling thread
  /// taking one): the changed records of a large save are patched on two
  /// (`FileImage.rewrite`'s `parts`). Returns once every part has, so the work never
  /// outlives the call. The work is not `Sendable` (it reads the document and the file's
  /// bytes, which nothing writes while it runs, and each part writes only its own
  /// state: `PartRunner`'s contract), hence the unchecked wrapper.
  static var sideBySide: PartRunner {
    { parts, work in
      withoutActuallyEscaping(work) { work in
        let work = UncheckedParts(work: work)
        DispatchQueue.concurrentPerform(iterations: parts) { work.work($0) }
      }
    }
  }

  /// A part's work handed to the pool's threads (see `sideBySide`).
  private struct UncheckedParts: @unchecked Sendable {
    let work: (Int) -> Void
  }

  public struct Loaded {
    /// The records read; `takeDocument()` hands them to their one taker.
    public var document: Document<Root> { handoff.document }
    /// `nil` when the file does not exist yet.
    var identity: FileIdentity?
    /// The content hash of the bytes read, which a journal must name; `nil` with no file.
    public var hash: String?
    public var warnings: [String]
    /// The records and the image of the bytes read (where each record lies in them, and
    /// the file holding them, `StoredImage`), handed over once: copies of a `Loaded` (the
    /// kind's choice keeps one for the whole run) share them, and the session that takes
    /// them is then their only holder — so the file is let go when its first save replaces
    /// it, and its first edit does not copy a million records another reference shares.
    private let handoff: Handoff

    init(
      document: Document<Root>, identity: FileIdentity?, hash: String?, warnings: [String],
      image: StoredImage? = nil
    ) {
      (self.identity, self.hash, self.warnings) = (identity, hash, warnings)
      handoff = Handoff(image, document)
    }

    /// The image of the bytes read (`nil` with no file, or no record in it), to its one
    /// taker: later calls, on any copy, give `nil`.
    public func takeImage() -> StoredImage? {
      handoff.takeImage()
    }

    /// The records read, to their one taker (the session): every copy's `document` is
    /// empty afterwards.
    func takeDocument() -> Document<Root> {
      handoff.takeDocument()
    }
  }

  /// What a `Loaded` hands over once. recsh reads and opens a file on one thread; a test
  /// opening files on several threads gives each its own `Loaded`.
  private final class Handoff: @unchecked Sendable {
    private var image: StoredImage?
    private(set) var document: Document<Root>
    init(_ image: StoredImage?, _ document: Document<Root>) {
      (self.image, self.document) = (image, document)
    }
    func takeImage() -> StoredImage? {
      defer { image = nil }
      return image
    }
    func takeDocument() -> Document<Root> {
      defer { document = Document() }
      return document
    }
  }

  /// Runs `decode` over a file's mapped bytes as `FileReader.scanFile` hands them, placing
  /// each record as the decoder passes its end (`FileImage.Locator`, for a JSON or JSON
  /// Lines `layout`), while its bytes are at hand: the image is made without a copy of the
  /// file or a second read of it, and the mapping's pages can go as they pass.
  static func locating<Decoded>(
    _ bytes: UnsafeBufferPointer<UInt8>, layout: RecordLayout, passing passed: (Int) -> Void,
    _ decode: (UnsafeBufferPointer<UInt8>, (Int) -> Void) -> Decoded
  ) -> (Decoded, located: FileImage.Locator.Located?) {
    var locator = FileImage.Locator(layout: layout)
    // A table places its rows as it reads them (`CSVTable`).
    var placed = !layout.isDelimited
    let decoded = withoutActuallyEscaping(passed) { passed in
      decode(bytes) { end in
        if placed { placed = locator.pass(end, in: bytes) }
        passed(end)
      }
    }
    return (decoded, placed ? locator.finish(in: bytes) : nil)
  }

  /// The image of a file just read for `document` (its records in file order), from where
  /// its records lie (`located`, JSON) or its table (CSV, TSV); it does not hold the bytes,
  /// which stay in `file`. With no `file` (a file that could not be mapped was read whole),
  /// the bytes are read again, checked against `hash`, and held. `nil` when the image
  /// cannot be made: a save then writes recsh's own layout.
  static func image(
    of path: String, located: FileImage.Locator.Located?, table: CSVTable?, layout: RecordLayout,
    document: Document<Root>, file: HeldFile?, byteCount: Int, hash: String, using fileSystem: any FileSystem
  ) -> StoredImage? {
    // Read from the records as the image takes them, not gathered into an array first.
    let ids = IDList(count: document.count, id: document.id(at:))
    let image: FileImage?
    if let table {
      image = FileImage(
        byteCount: byteCount, layout: layout, table: table, ids: ids, lineage: document.lineage)
    } else if let located {
      image = FileImage(located: located, layout: layout, ids: ids, lineage: document.lineage)
    } else {
      image = nil
    }
    guard let image else { return nil }
    if let file { return StoredImage(image: image, file: file) }
    return readChecked(path, hash: hash, using: fileSystem).flatMap(image.holding).map {
      StoredImage(image: $0, file: nil)
    }
  }

  /// Reads and decodes the file at `path` in one pass (`FileReader.scanFile`), so that
  /// its bytes are not all held in memory while the records are made. `layout`: how the
  /// file holds its records, when its name does not say (`RecordLayout(path:)`).
  package static func load(
    _ path: String, layout: RecordLayout? = nil, using fileSystem: any FileSystem,
    progress: ProgressHandler? = nil
  )
    throws(SessionError) -> Loaded
  {
    let layout = layout ?? RecordLayout(path: path)
    let loaded = try scanLoad(path, layout: layout, using: fileSystem, progress: progress) {
      (bytes, passed) throws(RecordFileError) in
      let loaded = try RecordFile<Root>.decode(bytes, layout: layout, passing: passed)
      return (loaded.document, loaded.warnings, loaded.table)
    }
    return loaded ?? Loaded(document: Document(), identity: nil, hash: nil, warnings: [])
  }

  /// Scans the file at `path` once (`FileReader.scanFileKeepingIt(_:using:progress:refusable:)`),
  /// `decode` making its records while `locating` places them, and makes the load of
  /// them. `nil` when nothing is at `path`; a file `decode` refuses throws, the bytes after
  /// the refusal unread.
  private static func scanLoad(
    _ path: String, layout: RecordLayout, using fileSystem: any FileSystem, progress: ProgressHandler?,
    _ decode: (UnsafeBufferPointer<UInt8>, (Int) -> Void) throws(RecordFileError) -> (
      document: Document<Root>, warnings: [String], table: CSVTable?
    )
  ) throws(SessionError) -> Loaded? {
    typealias Decoded = (document: Document<Root>, warnings: [String], table: CSVTable?)
    let result:
      Result<FileReader.Scanned<(decoded: Decoded, located: FileImage.Locator.Located?)>, RecordFileError>
    do {
      result = try FileReader.scanFileKeepingIt(
        path, using: fileSystem, progress: progress,
        refusable: { bytes, passed in
          let (decoded, located) = locating(bytes, layout: layout, passing: passed) { bytes, passed in
            withoutActuallyEscaping(passed) { passed in
              Result { () throws(RecordFileError) in try decode(bytes, passed) }
            }
          }
          return decoded.map { ($0, located) }
        })
    } catch {
      if case .notFound = error { return nil }
      throw .storage(error)
    }
    let scanned: FileReader.Scanned<(decoded: Decoded, located: FileImage.Locator.Located?)>
    do {
      scanned = try result.get()
    } catch {
      throw .file(path: path, error)
    }
    let read = scanned.value.decoded
    return Loaded(
      document: read.document, identity: scanned.identity, hash: scanned.hash, warnings: read.warnings,
      image: image(
        of: path, located: scanned.value.located, table: read.table, layout: layout,
        document: read.document, file: scanned.held, byteCount: Int(scanned.identity.size),
        hash: scanned.hash, using: fileSystem))
  }

  /// Saves `records` atomically to `path`, laid out as `layout` (by default as the
  /// name says, `RecordLayout(path:)`), encoding them a chunk at a time straight into
  /// the temporary file, so that a save needs one chunk of memory beside the records,
  /// not the whole new file. Returns the outcome and the `ContentHash` of the bytes
  /// written, which the journal starts again from.
  ///
  /// `progress`, when given, hears `.began(.saving, …)` with `estimatedBytes`, the bytes
  /// written after each chunk (256 KiB), then `.ended`, whether the save worked or not.
  ///
  /// `beforeReplacing` hears the new bytes' hash once they are all written, before the
  /// file is replaced: the history log notes the save then, so that no crash can leave a
  /// new file that the log knows nothing of.
  package static func save(
    _ records: [Root], to path: String, layout: RecordLayout? = nil, using fileSystem: any FileSystem,
    progress: ProgressHandler? = nil, estimatedBytes: Int = 0, beforeReplacing: (String) -> Void = { _ in }
  ) throws(StorageError) -> (SaveOutcome, hash: String, bytes: Int) {
    let layout = layout ?? RecordLayout(path: path)
    return try save(
      to: path, using: fileSystem, progress: progress, estimatedBytes: estimatedBytes,
      beforeReplacing: beforeReplacing
    ) {
      (sink) throws(SystemCallError) in
      try RecordFile<Root>.encode(records, layout: layout, into: sink)
    }
  }

  /// Saves `document` to `path` over `stored`, the bytes the session read or last wrote
  /// (`FileImage.rewrite`: only what changed is written anew), when `stored` is of the
  /// layout `path` takes; else as `save(_:to:…)` writes records, in recsh's own layout (a
  /// new file, a conversion). Returns, besides what that returns, the plan of the new
  /// bytes' image, which `image(of:using:)` completes once the caller has let the old
  /// image go. Bytes in a held file are checked against their hash first and read through
  /// a mapping whose passed pages are let go: a save holds no copy of the file. Should they
  /// be gone (another program wrote the file in place), the save writes over the image
  /// `bytesGone` gives (the history's copy), else recsh's own layout; should they change
  /// while the save reads them, it throws `changedWhileSaving` with nothing replaced.
  ///
  /// `exactly`: bytes known to hold exactly the document's records in `path`'s layout (the
  /// file as first opened, when every edit was undone), written as they are.
  ///
  /// `alternate`: another file's image whose records' bytes stand for records `image`
  /// does not hold (`FileImage.rewrite`; a merge's THEIRS).
  package static func save(
    _ document: Document<Root>, over stored: StoredImage?, alternate: StoredImage? = nil,
    exactly exact: [UInt8]? = nil, to path: String,
    layout: RecordLayout? = nil, using fileSystem: any FileSystem, progress: ProgressHandler? = nil,
    estimatedBytes: Int = 0, bytesGone: () -> FileImage? = { nil },
    beforeReplacing: (String) -> Void = { _ in }
  ) throws(StorageError) -> (SaveOutcome, hash: String, bytes: Int, plan: FileImage.Plan) {
    let layout = layout ?? RecordLayout(path: path)
    var saved: (SaveOutcome, hash: String, bytes: Int)?
    var plan: FileImage.Plan?
    var image = stored?.image.layout == layout ? stored : nil
    let alternate = image == nil ? nil : alternate?.held()
    var changedWhileSaving = false
    /// The atomic save of `document` written over `over`'s bytes, `bytes`; `unchanged` is
    /// asked before the new file replaces the old.
    func rewrite(
      _ over: FileImage, in bytes: UnsafeBufferPointer<UInt8>, passing: (Int) -> Void, unchanged: () -> Bool
    ) throws(StorageError) -> (SaveOutcome, hash: String, bytes: Int) {
      try save(
        to: path, using: fileSystem, progress: progress, estimatedBytes: over.byteCount,
        beforeReplacing: beforeReplacing
      ) { (sink) throws(SystemCallError) in
        plan = try over.rewrite(
          document, in: bytes, alternate: alternate, chunkSize: RecordFile<Root>.defaultChunkSize,
          parts: DataFile.sideBySide, passing: passing, into: sink)
        guard unchanged() else {
          changedWhileSaving = true
          // Stands for the change until the catch below, which says what happened.
          throw SystemCallError(.read, code: EIO, path: path)
        }
      }
    }
    if let exact {
      saved = try save(
        to: path, using: fileSystem, progress: progress, estimatedBytes: exact.count,
        beforeReplacing: beforeReplacing
      ) { (sink) throws(SystemCallError) in
        try exact.withUnsafeBufferPointer { (bytes) throws(SystemCallError) in try sink(bytes) }
      }
    } else if let stored = image, let file = stored.file {
      // The bytes as read, checked first; should another program change them while the
      // save reads them, the save is not made (nothing is replaced) and says so.
      do throws(StorageError) {
        saved = try file.withCheckedBytes { (bytes, passing, unchanged) throws(StorageError) in
          try rewrite(stored.image, in: bytes, passing: passing, unchanged: unchanged)
        }
      } catch {
        throw changedWhileSaving ? .changedWhileSaving(path: path, read: file.descriptor.path) : error
      }
      // The bytes are gone: over the copy the history keeps of them, else anew.
      if saved == nil { image = bytesGone().map { StoredImage(image: $0, file: nil) } }
    }
    if saved == nil, let held = image?.image, let bytes = held.heldBytes {
      saved = try bytes.withUnsafeBufferPointer { (bytes) throws(StorageError) in
        try rewrite(held, in: bytes, passing: { _ in }, unchanged: { true })
      }
    }
    let written: (SaveOutcome, hash: String, bytes: Int)
    if let saved {
      written = saved
    } else {
      written = try save(
        document.records, to: path, layout: layout, using: fileSystem, progress: progress,
        estimatedBytes: estimatedBytes, beforeReplacing: beforeReplacing)
    }
    return (
      written.0, written.hash, written.bytes,
      plan ?? FileImage.Plan(unplaced: document, layout: layout, byteCount: written.bytes)
    )
  }

  /// The image of the file a save wrote (`written`): kept open (its bytes are checked
  /// against the hash of what was written when a save reads them), or, when the save's
  /// plan does not say where each record went, read back now and checked. `nil` when the
  /// file is not those bytes any more (another program changed it) or cannot be read: a
  /// save then writes recsh's own layout.
  static func image(of written: WrittenFile, using fileSystem: any FileSystem) -> StoredImage? {
    if let image = FileImage(unheld: written.plan),
      let file = HeldFile.reopen(
        written.path, identity: written.identity, hash: written.hash, using: fileSystem)
    {
      return StoredImage(image: image, file: file)
    }
    guard let bytes = readChecked(written.path, hash: written.hash, using: fileSystem),
      let image = FileImage(plan: written.plan, bytes: bytes)
    else { return nil }
    return StoredImage(image: image, file: nil)
  }

  /// The bytes of the file at `path` read whole, when they hash to `hash`; `nil` when they
  /// do not (another program changed the file) or cannot be read.
  private static func readChecked(_ path: String, hash: String, using fileSystem: any FileSystem) -> [UInt8]?
  {
    guard let read = try? FileReader.readFile(path, using: fileSystem), ContentHash.of(read.bytes) == hash
    else { return nil }
    return read.bytes
  }

  /// The atomic save of the bytes `produce` hands its sink, hashed and counted as they go.
  private static func save(
    to path: String, using fileSystem: any FileSystem, progress: ProgressHandler?, estimatedBytes: Int,
    beforeReplacing: (String) -> Void,
    produce: ((UnsafeBufferPointer<UInt8>) throws(SystemCallError) -> Void) throws(SystemCallError) -> Void
  ) throws(StorageError) -> (SaveOutcome, hash: String, bytes: Int) {
    var hasher = ContentHasher()
    var written = 0
    progress?(.began(.saving, path: path, totalBytes: estimatedBytes))
    defer { progress?(.ended) }
    let outcome = try AtomicFile.save(to: path, using: fileSystem) { (write) throws(SystemCallError) in
      try withoutActuallyEscaping(write) { (write) throws(SystemCallError) in
        try produce { (chunk) throws(SystemCallError) in
          hasher.combine(chunk)
          try write(chunk)
          written += chunk.count
          progress?(.advanced(bytes: written))
        }
      }
      beforeReplacing(hasher.finalize())
    }
    return (outcome, hasher.finalize(), written)
  }
}

extension DataFile where Root == RunTimeRecord {
  /// Reads the file at `path` as records of `schema`'s kind, or of a kind inferred from
  /// them (`RunTimeFile`), in one pass over its bytes. A missing file is an empty one.
  static func loadRunTime(
    _ path: String, layout: RecordLayout? = nil, schema: RecordSchema?, name: String,
    using fileSystem: any FileSystem, progress: ProgressHandler? = nil
  ) throws(SessionError) -> (RunTimeKind, Loaded) {
    let layout = layout ?? RecordLayout(path: path)
    var kind: RunTimeKind?
    let loaded = try scanLoad(path, layout: layout, using: fileSystem, progress: progress) {
      (bytes, passed) throws(RecordFileError) in
      let loaded = try RunTimeFile.decode(bytes, layout: layout, schema: schema, name: name, passing: passed)
      kind = loaded.kind
      return (loaded.document, loaded.warnings, loaded.table)
    }
    guard let loaded, let kind else {
      return (
        RunTimeFile.kind(ofNoRecords: schema, name: name),
        Loaded(document: Document(), identity: nil, hash: nil, warnings: [])
      )
    }
    return (kind, loaded)
  }
}

/// A file a save wrote: what reading it back for the next save's image needs.
struct WrittenFile {
  var path: String
  /// The content hash of the bytes written.
  var hash: String
  /// The file's identity once written.
  var identity: FileIdentity
  var plan: FileImage.Plan
}
