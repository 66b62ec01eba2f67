import RecordKit

/// A data file on disk: read through the storage seam and decoded, or a new
/// (missing) file that the first save creates; and records encoded and saved to one.
public enum DataFile<Root: Record> {
  public struct Loaded {
    /// The records read; `takeDocument()` hands them to their one taker.
    public var document: Document<Root> { handoff.document }
    /// `nil` when the file does not exist yet.
    var identity: FileIdentity?
    /// The content hash of the bytes read, which a journal must name; `nil` with no file.
    public var hash: String?
    public var warnings: [String]
    /// The records and the bytes read (with where each record lies in them, `FileImage`),
    /// handed over once: copies of a `Loaded` (the kind's choice keeps one for the whole
    /// run) share them, and the session that takes them is then their only holder — so the
    /// file's bytes are freed when its first save replaces them, and its first edit does not
    /// copy a million records that another reference still shares.
    private let handoff: Handoff

    init(
      document: Document<Root>, identity: FileIdentity?, hash: String?, warnings: [String],
      image: FileImage? = nil
    ) {
      (self.identity, self.hash, self.warnings) = (identity, hash, warnings)
      handoff = Handoff(image, document)
    }

    /// The image of the bytes read (`nil` with no file, or no record in it), to its one
    /// taker: later calls, on any copy, give `nil`.
    public func takeImage() -> FileImage? {
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
    private var image: FileImage?
    private(set) var document: Document<Root>
    init(_ image: FileImage?, _ document: Document<Root>) { (self.image, self.document) = (image, document) }
    func takeImage() -> FileImage? {
      defer { image = nil }
      return image
    }
    func takeDocument() -> Document<Root> {
      defer { document = Document() }
      return document
    }
  }

  /// Runs `decode` over a file's mapped bytes as `FileReader.scanFile` hands them, keeping
  /// the session's own copy of the bytes and each record's end as the decoder passes them:
  /// the copy grows behind the decoder, so the mapping's pages can still go as they pass.
  static func copying<Decoded>(
    _ bytes: UnsafeBufferPointer<UInt8>, passing passed: (Int) -> Void,
    _ decode: (UnsafeBufferPointer<UInt8>, (Int) -> Void) -> Decoded
  ) -> (Decoded, copy: [UInt8], ends: [Int]) {
    var copy: [UInt8] = []
    copy.reserveCapacity(bytes.count)
    var ends: [Int] = []
    var copied = 0
    let decoded = withoutActuallyEscaping(passed) { passed in
      decode(bytes) { end in
        if end > copied {
          copy.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<end]))
          copied = end
        }
        ends.append(end)
        passed(end)
      }
    }
    if copied < bytes.count { copy.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...])) }
    return (decoded, copy, ends)
  }

  /// The image of a file just read, for `document` (its records in file order).
  static func image(
    _ copy: [UInt8], ends: [Int], layout: RecordLayout, document: Document<Root>, table: CSVTable? = nil
  ) -> FileImage? {
    if let table {
      return FileImage(
        bytes: copy, layout: layout, table: table, ids: (0..<document.count).map(document.id(at:)),
        lineage: document.lineage)
    }
    return FileImage(
      bytes: copy, layout: layout, recordEnds: ends, ids: (0..<document.count).map(document.id(at:)),
      lineage: document.lineage)
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
    typealias Read = (Result<RecordFile<Root>.Loaded, RecordFileError>, copy: [UInt8], ends: [Int])
    let scanned: (result: Read, identity: FileIdentity, hash: String)
    do {
      scanned = try FileReader.scanFile(path, using: fileSystem, progress: progress) { bytes, passed in
        copying(bytes, passing: passed) { bytes, passed in
          Result { () throws(RecordFileError) in
            try RecordFile<Root>.decode(bytes, layout: layout, passing: passed)
          }
        }
      }
    } catch {
      if case .notFound = error {
        return Loaded(document: Document(), identity: nil, hash: nil, warnings: [])
      }
      throw .storage(error)
    }
    do {
      let loaded = try scanned.result.0.get()
      return Loaded(
        document: loaded.document, identity: scanned.identity, hash: scanned.hash, warnings: loaded.warnings,
        image: image(
          scanned.result.copy, ends: scanned.result.ends, layout: layout, document: loaded.document,
          table: loaded.table))
    } catch {
      throw .file(path: path, error)
    }
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

  /// Saves `document` to `path` over `image`, the bytes the session read or last wrote
  /// (`FileImage.rewrite`: only what changed is written anew), when `image` is of the
  /// layout `path` takes; else as `save(_:to:…)` writes records, in recsh's own layout (a
  /// new file, a conversion). Returns, besides what that returns, the plan of the new
  /// bytes' image, which `image(of:using:)` completes by reading them back once the
  /// caller has let the old image go: a save never holds two copies of the file.
  ///
  /// `exactly`: bytes known to hold exactly the document's records in `path`'s layout (the
  /// file as first opened, when every edit was undone), written as they are.
  ///
  /// `alternate`: another file's image whose records' bytes stand for records `image`
  /// does not hold (`FileImage.rewrite`; a merge's THEIRS).
  package static func save(
    _ document: Document<Root>, over image: FileImage?, alternate: FileImage? = nil,
    exactly exact: [UInt8]? = nil, to path: String,
    layout: RecordLayout? = nil, using fileSystem: any FileSystem, progress: ProgressHandler? = nil,
    estimatedBytes: Int = 0, beforeReplacing: (String) -> Void = { _ in }
  ) throws(StorageError) -> (SaveOutcome, hash: String, bytes: Int, plan: FileImage.Plan) {
    let layout = layout ?? RecordLayout(path: path)
    let saved: (SaveOutcome, hash: String, bytes: Int)
    var plan: FileImage.Plan?
    if let exact {
      saved = try save(
        to: path, using: fileSystem, progress: progress, estimatedBytes: exact.count,
        beforeReplacing: beforeReplacing
      ) { (sink) throws(SystemCallError) in
        try exact.withUnsafeBufferPointer { (bytes) throws(SystemCallError) in try sink(bytes) }
      }
    } else if let image, image.layout == layout {
      saved = try save(
        to: path, using: fileSystem, progress: progress, estimatedBytes: image.byteCount,
        beforeReplacing: beforeReplacing
      ) { (sink) throws(SystemCallError) in
        plan = try image.rewrite(
          document, alternate: alternate, chunkSize: RecordFile<Root>.defaultChunkSize, into: sink)
      }
    } else {
      saved = try save(
        document.records, to: path, layout: layout, using: fileSystem, progress: progress,
        estimatedBytes: estimatedBytes, beforeReplacing: beforeReplacing)
    }
    return (
      saved.0, saved.hash, saved.bytes,
      plan ?? FileImage.Plan(unplaced: document, layout: layout, byteCount: saved.bytes)
    )
  }

  /// The image of the file a save wrote (`written`), read back and checked against the
  /// hash of the bytes written, its records placed as the save's plan says. `nil` when the
  /// file is not those bytes any more (another program changed it) or cannot be read: a
  /// save then writes recsh's own layout.
  static func image(of written: WrittenFile, using fileSystem: any FileSystem) -> FileImage? {
    guard let read = try? FileReader.readFile(written.path, using: fileSystem),
      ContentHash.of(read.bytes) == written.hash
    else { return nil }
    return FileImage(plan: written.plan, bytes: read.bytes)
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
    typealias Read = (Result<RunTimeFile.Loaded, RecordFileError>, copy: [UInt8], ends: [Int])
    let scanned: (result: Read, identity: FileIdentity, hash: String)
    do {
      scanned = try FileReader.scanFile(path, using: fileSystem, progress: progress) { bytes, passed in
        copying(bytes, passing: passed) { bytes, passed in
          Result { () throws(RecordFileError) in
            try RunTimeFile.decode(bytes, layout: layout, schema: schema, name: name, passing: passed)
          }
        }
      }
    } catch {
      if case .notFound = error {
        return (
          RunTimeFile.kind(ofNoRecords: schema, name: name),
          Loaded(document: Document(), identity: nil, hash: nil, warnings: [])
        )
      }
      throw .storage(error)
    }
    do {
      let loaded = try scanned.result.0.get()
      return (
        loaded.kind,
        Loaded(
          document: loaded.document, identity: scanned.identity, hash: scanned.hash,
          warnings: loaded.warnings,
          image: image(
            scanned.result.copy, ends: scanned.result.ends, layout: layout, document: loaded.document,
            table: loaded.table)
        )
      )
    } catch {
      throw .file(path: path, error)
    }
  }
}

/// A file a save wrote: what reading it back for the next save's image needs.
struct WrittenFile {
  var path: String
  /// The content hash of the bytes written.
  var hash: String
  var plan: FileImage.Plan
}
