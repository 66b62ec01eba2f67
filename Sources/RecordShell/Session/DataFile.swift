import RecordKit

/// A data file on disk: read through the storage seam and decoded, or a new
/// (missing) file that the first save creates; and records encoded and saved to one.
public enum DataFile<Root: Record> {
  public struct Loaded {
    public var document: Document<Root>
    /// `nil` when the file does not exist yet.
    public var identity: FileIdentity?
    /// The content hash of the bytes read, which a journal must name; `nil` with no file.
    public var hash: String?
    public var warnings: [String]
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
    let scanned:
      (result: Result<RecordFile<Root>.Loaded, RecordFileError>, identity: FileIdentity, hash: String)
    do {
      scanned = try FileReader.scanFile(path, using: fileSystem, progress: progress) { bytes, passed in
        Result { () throws(RecordFileError) in
          try RecordFile<Root>.decode(bytes, layout: layout, passing: passed)
        }
      }
    } catch {
      if case .notFound = error {
        return Loaded(document: Document(), identity: nil, hash: nil, warnings: [])
      }
      throw .storage(error)
    }
    do {
      let loaded = try scanned.result.get()
      return Loaded(
        document: loaded.document, identity: scanned.identity, hash: scanned.hash, warnings: loaded.warnings)
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
    var hasher = ContentHasher()
    var written = 0
    progress?(.began(.saving, path: path, totalBytes: estimatedBytes))
    defer { progress?(.ended) }
    let outcome = try AtomicFile.save(to: path, using: fileSystem) { (write) throws(SystemCallError) in
      try RecordFile<Root>.encode(records, layout: layout) { (chunk) throws(SystemCallError) in
        hasher.combine(chunk)
        try write(chunk)
        written += chunk.count
        progress?(.advanced(bytes: written))
      }
      beforeReplacing(hasher.finalize())
    }
    return (outcome, hasher.finalize(), written)
  }
}

extension DataFile where Root == RunTimeRecord {
  /// Reads the file at `path` as records of `schema`'s kind, or of a kind inferred from
  /// them (`RunTimeFile`), in one pass over its bytes. A missing file is an empty one.
  package static func loadRunTime(
    _ path: String, layout: RecordLayout? = nil, schema: RecordSchema?, name: String,
    using fileSystem: any FileSystem, progress: ProgressHandler? = nil
  ) throws(SessionError) -> (RunTimeKind, Loaded) {
    let layout = layout ?? RecordLayout(path: path)
    let scanned: (result: Result<RunTimeFile.Loaded, RecordFileError>, identity: FileIdentity, hash: String)
    do {
      scanned = try FileReader.scanFile(path, using: fileSystem, progress: progress) { bytes, passed in
        Result { () throws(RecordFileError) in
          try RunTimeFile.decode(bytes, layout: layout, schema: schema, name: name, passing: passed)
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
      let loaded = try scanned.result.get()
      return (
        loaded.kind,
        Loaded(
          document: loaded.document, identity: scanned.identity, hash: scanned.hash, warnings: loaded.warnings
        )
      )
    } catch {
      throw .file(path: path, error)
    }
  }
}
