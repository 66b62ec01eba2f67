import Glibc
import RecordKit

/// Which kind a file opens as, and why, by the first rule that applies:
///
/// 1. `--kind task|contact`, or `--schema FILE`;
/// 2. a schema beside the data file: `books.schema.json` for `books.json` (or `.jsonl`);
/// 3. the kind remembered in the file's history (the log's header): a shipped kind by
///    name, a run-time kind by its schema; when the file's records no longer fit it, the
///    rules below decide (and the history, of another kind, is set aside when opened);
/// 4. a missing or empty file: `task`;
/// 5. a shipped kind every record fits (a string `id`, every declared field it holds of
///    the declared type) whose declared fields the records together hold at least half
///    of (a nested object such as `address` counts as one); of two, the one they hold
///    more of, `task` on a tie;
/// 6. a kind inferred from the records.
///
/// Rules 5 and 6 read the file: the records are loaded as a shipped kind (task first);
/// when that kind is chosen, that load is the session's, so a task file is read once. A
/// file without string ids fails the shipped loads at its first record. A file with
/// string ids that fits neither shipped kind is read up to three times (task, contact,
/// inferred); `--schema` or a schema beside the file reads it once.
package struct KindChoice {
  package enum Kind {
    /// A shipped kind by name, with the file loaded as it when that was done already
    /// (a `DataFile<R>.Loaded` for that kind's record type `R`).
    case shipped(String, preloaded: Any?)
    case runTime(RunTimeKind, preloaded: DataFile<RunTimeRecord>.Loaded?)
  }

  package var kind: Kind
  /// "contact: every record fits it and they hold 6 of its 6 fields".
  package var note: String

  /// The choice for `file` (nil: no file), given `--kind` and `--schema`; `layout`: how
  /// the file holds its records when its name does not say (`RecordLayout(path:)`).
  package static func choose(
    file: String?, layout: RecordLayout? = nil, kindFlag: String?, schemaPath: String?,
    fileSystem: any FileSystem = PosixFileSystem(), progress: ProgressHandler? = nil,
    stateFolder: StateFolder? = nil
  ) throws(SessionError) -> KindChoice {
    let layout = file.map { layout ?? RecordLayout(path: $0) } ?? .array
    if let kindFlag {
      return KindChoice(
        kind: .shipped(kindFlag, preloaded: nil), note: "kind \(kindFlag) (--kind \(kindFlag))")
    }
    if let schemaPath {
      return try runTime(
        file: file, layout: layout, schemaPath: schemaPath, why: "--schema", fileSystem: fileSystem,
        progress: progress)
    }
    guard let file else {
      return KindChoice(
        kind: .shipped(KindRegistry.defaultKind.kind, preloaded: nil), note: "kind task (no file)")
    }
    // An empty schema beside the file is no schema: `recsh books.json -c schema >
    // books.schema.json` has the shell create it, empty, before recsh runs.
    let beside = Self.schemaPath(besideDataFile: file)
    if let size = try fileSize(beside, fileSystem), size > 0 {
      return try runTime(
        file: file, layout: layout, schemaPath: beside, why: "the schema beside the file",
        fileSystem: fileSystem, progress: progress)
    }
    if let remembered = try remembered(
      file: file, layout: layout, stateFolder: stateFolder, fileSystem: fileSystem, progress: progress)
    {
      return remembered
    }
    let size: Int64
    do {
      size = try fileSystem.stat(file).size
    } catch let error where error.code == ENOENT {
      return KindChoice(
        kind: .shipped(KindRegistry.defaultKind.kind, preloaded: nil), note: "kind task (a new file)")
    } catch {
      throw .storage(.failed(.read, path: file, cause: error))
    }
    if size == 0 {
      return KindChoice(
        kind: .shipped(KindRegistry.defaultKind.kind, preloaded: nil), note: "kind task (the file is empty)")
    }
    return try fitOrInfer(file, layout: layout, fileSystem: fileSystem, progress: progress)
  }

  /// `books.schema.json` for `books.json`, `books.jsonl`, `books.ndjson` or `books`.
  package static func schemaPath(besideDataFile file: String) -> String {
    stem(file) + ".schema.json"
  }

  /// `path` without the ending that says its layout (`RecordLayout.nameEndings`).
  private static func stem(_ path: String) -> String {
    var stem = path
    for suffix in RecordLayout.nameEndings where stem.hasSuffix(suffix) && stem.count > suffix.count {
      stem.removeLast(suffix.count)
      break
    }
    return stem
  }

  /// The name a run-time kind takes from its data file: `books` for `dir/books.json`.
  static func kindName(forDataFile file: String?) -> String {
    guard let file else { return "records" }
    return stem(String(file.split(separator: "/").last ?? Substring(file)))
  }

  /// The size of the file at `path`; `nil` when there is none.
  private static func fileSize(_ path: String, _ fileSystem: any FileSystem) throws(SessionError) -> Int64? {
    do {
      return try fileSystem.stat(path).size
    } catch let error where error.code == ENOENT {
      return nil
    } catch {
      throw .storage(.failed(.read, path: path, cause: error))
    }
  }

  // MARK: Rule 3: the kind the history remembers

  /// The kind the log of `file` in `stateFolder` names, loaded; `nil` when there is no log,
  /// or the records do not fit that kind any more (the next rules decide then).
  private static func remembered(
    file: String, layout: RecordLayout, stateFolder: StateFolder?, fileSystem: any FileSystem,
    progress: ProgressHandler?
  ) throws(SessionError) -> KindChoice? {
    guard let header = Journal.peekHeader(forDataFile: file, in: stateFolder, fileSystem: fileSystem) else {
      return nil
    }
    let note = "kind \(header.kind), remembered from the file's history"
    if let document = header.schema {
      guard let schema = try? RecordSchema(reading: document) else { return nil }
      do {
        let (kind, loaded) = try DataFile<RunTimeRecord>.loadRunTime(
          file, layout: layout, schema: schema, name: kindName(forDataFile: file), using: fileSystem,
          progress: progress)
        guard kind.name == header.kind else { return nil }
        return KindChoice(kind: .runTime(kind, preloaded: loaded), note: note)
      } catch {
        guard case .file = error else { throw error }
        return nil
      }
    }
    guard let kind = shipped.first(where: { $0.name == header.kind }) else { return nil }
    do {
      return KindChoice(
        kind: .shipped(kind.name, preloaded: try kind.load(file, layout, fileSystem, progress).loaded),
        note: note)
    } catch {
      guard case .file = error else { throw error }
      return nil
    }
  }

  // MARK: Rules 1 and 2: a schema

  private static func runTime(
    file: String?, layout: RecordLayout, schemaPath: String, why: String, fileSystem: any FileSystem,
    progress: ProgressHandler?
  ) throws(SessionError) -> KindChoice {
    let schema = try readSchema(schemaPath, fileSystem: fileSystem)
    let name = kindName(forDataFile: file)
    let note = "kind \(schema.title ?? name), from the schema \(schemaPath) (\(why))"
    guard let file else {
      return KindChoice(
        kind: .runTime(RunTimeFile.kind(ofNoRecords: schema, name: name), preloaded: nil), note: note)
    }
    let (kind, loaded) = try DataFile<RunTimeRecord>.loadRunTime(
      file, layout: layout, schema: schema, name: name, using: fileSystem, progress: progress)
    return KindChoice(kind: .runTime(kind, preloaded: loaded), note: note)
  }

  /// The schema file at `path`, read and checked: bad JSON is refused as a data file is
  /// (`FILE:LINE:COLUMN`), a schema recsh cannot honour with its JSON pointer.
  static func readSchema(_ path: String, fileSystem: any FileSystem) throws(SessionError)
    -> RecordSchema
  {
    let bytes: [UInt8]
    do {
      bytes = try FileReader.readFile(path, using: fileSystem).bytes
    } catch {
      throw .storage(error)
    }
    let document: JSONValue
    do {
      document = try JSONValue.parse(bytes: bytes)
    } catch {
      throw .file(path: path, .syntax(error))
    }
    do {
      return try RecordSchema(reading: document)
    } catch {
      throw .schema(path: path, pointer: error.pointer.description, message: error.message)
    }
  }

  // MARK: Rules 5 and 6: the records decide

  /// One shipped kind, as the choice needs it: its top-level declared fields (a nested
  /// object once), and its loader, written out per record type so that it runs
  /// specialized (`ShellLauncherTests` checks that every kind of `KindRegistry` has one).
  struct Shipped: Sendable {
    var name: String
    var declared: [String]
    /// Loads the file as this kind: the loaded file (a `DataFile<R>.Loaded`), the
    /// top-level keys its records hold, and how many records it has.
    var load:
      @Sendable (String, RecordLayout, any FileSystem, ProgressHandler?) throws(SessionError) -> (
        loaded: Any, held: Set<String>, count: Int
      )

    static func of<R: Record>(_ type: R.Type) -> Shipped {
      Shipped(name: R.kind, declared: topLevelNames(R.fields.names.dropFirst())) {
        (path, layout, fileSystem, progress) throws(SessionError) in
        let loaded = try DataFile<R>.load(path, layout: layout, using: fileSystem, progress: progress)
        return (loaded, heldKeys(loaded.document.records), loaded.document.count)
      }
    }
  }

  static let shipped: [Shipped] = [.of(TaskRecord.self), .of(ContactRecord.self)]

  static func topLevelNames(_ names: some Sequence<String>) -> [String] {
    var result: [String] = []
    for name in names {
      let top = String(name.split(separator: ".", maxSplits: 1).first ?? Substring(name))
      if !result.contains(top) { result.append(top) }
    }
    return result
  }

  /// The top-level keys the records hold: declared fields one of them has, and custom keys.
  /// Reads the records in place (iterating the array would copy each one, a retain and
  /// release per field), and stops looking for a field at the first record that has it.
  static func heldKeys<R: Record>(_ records: [R]) -> Set<String> {
    var held: Set<String> = []
    let table = R.fields
    records.withUnsafeBufferPointer { records in
      for field in table.fields.dropFirst() {
        let top = String(field.name.split(separator: ".", maxSplits: 1).first ?? Substring(field.name))
        guard !held.contains(top) else { continue }
        for index in records.indices where field.json(in: records[index]) != nil {
          held.insert(top)
          break
        }
      }
      var seen: [[UInt8]] = []
      for index in records.indices where !records[index].custom.isEmpty {
        records[index].custom.addKeys(to: &held, seen: &seen)
      }
    }
    return held
  }

  private static func fitOrInfer(
    _ file: String, layout: RecordLayout, fileSystem: any FileSystem, progress: ProgressHandler?
  ) throws(SessionError) -> KindChoice {
    var refusals: [String: String] = [:]
    var loads: [String: Any] = [:]
    var held: Set<String>?
    // Load as each shipped kind in turn until one fits the records' types: its load
    // tells which keys they hold, and so which kinds they hold enough of.
    for kind in shipped where held == nil {
      do {
        let result = try kind.load(file, layout, fileSystem, progress)
        // A file of no records (`[]`) is an empty file: the default kind (rule 4).
        if result.count == 0, kind.name == KindRegistry.defaultKind.kind {
          return KindChoice(
            kind: .shipped(kind.name, preloaded: result.loaded), note: "kind task (the file has no records)")
        }
        loads[kind.name] = result.loaded
        held = result.held
      } catch {
        guard case .file(_, let fileError) = error else { throw error }
        refusals[kind.name] = fileError.description
      }
    }
    if let held {
      let ranked = shipped.enumerated().map { entry in
        (entry.element, entry.offset, entry.element.declared.filter(held.contains).count)
      }.sorted { $0.2 != $1.2 ? $0.2 > $1.2 : $0.1 < $1.1 }
      for (kind, _, count) in ranked {
        guard count * 2 >= kind.declared.count else {
          refusals[kind.name] =
            refusals[kind.name] ?? "they hold \(count) of its \(kind.declared.count) fields"
          continue
        }
        if refusals[kind.name] != nil { continue }
        if loads[kind.name] == nil {
          do {
            loads[kind.name] = try kind.load(file, layout, fileSystem, progress).loaded
          } catch {
            guard case .file(_, let fileError) = error else { throw error }
            refusals[kind.name] = fileError.description
            continue
          }
        }
        return KindChoice(
          kind: .shipped(kind.name, preloaded: loads[kind.name]),
          note:
            "kind \(kind.name): every record fits it, and they hold \(count) of its \(kind.declared.count) fields"
        )
      }
    }
    loads = [:]
    let name = kindName(forDataFile: file)
    let (kind, loaded) = try DataFile<RunTimeRecord>.loadRunTime(
      file, layout: layout, schema: nil, name: name, using: fileSystem, progress: progress)
    let why = shipped.map { "not \($0.name): \(refusals[$0.name] ?? "does not fit")" }.joined(separator: "; ")
    return KindChoice(
      kind: .runTime(kind, preloaded: loaded), note: "kind \(name), inferred from the records (\(why))")
  }
}
