import Glibc
import RecordKit
import RecordShell

/// `recsh merge [--path PATH] [--kind K | --schema S] BASE OURS THEIRS [-o OUT]`: a three-way
/// merge by record and field (`RecordMerge`), made to be git's merge driver (`recsh merge
/// --path %P %O %A %B`).
///
/// - The kind is chosen as opening OURS would choose it (`KindChoice`; THEIRS' or BASE's
///   when OURS is empty), the other files are read as that kind: one that does not read
///   so (or whose records carry none of its fields) is of another kind, an error. PATH, the file's place in the work tree (git's files are temporary and have
///   no extension), decides JSON or JSON Lines and where a schema beside the file is.
/// - The result is written atomically over OURS (or to OUT), laid out as PATH (else OUT,
///   else OURS) says; when it is exactly OURS, OURS is not written at all.
/// - Exit 0: merged. Exit 1: conflicts, each listed on standard output (`key field: base →
///   ours | theirs`); the file holds ours' value of each, and the conflicts are kept in
///   recsh's state folder (`--state-dir`, else the environment's: `StateFolder`), named by
///   the work-tree file (PATH, else OUT, else OURS), where opening the file finds them. Exit 3: a file cannot be read or written, the files are
///   of different kinds, or the kind has no key (records cannot be matched; git then keeps
///   its own conflict markers). Exit 2: bad usage.
enum FileMerge {
  struct Paths {
    var base: String
    var ours: String
    var theirs: String
    var output: String?
    /// Where the file is in the work tree, when not OURS itself.
    var workTree: String?
    /// Where the conflicts are kept.
    var stateFolder: StateFolder?

    /// The path that names the file: PATH, else OUT, else OURS.
    var naming: String { workTree ?? output ?? ours }
  }

  /// Runs it for its command line (read as `CommandLineTable.merge` declares) and returns
  /// the exit status.
  static func run(_ parsed: ParsedCommandLine) -> Int32 {
    var streams = StandardStreams()
    defer { streams.flush() }
    let files = parsed.operands
    guard files.count == 3 else { return 2 }  // `CommandLineTable.merge` checked it
    let kind = parsed.text(.kind)
    var schema = parsed.text(.schema)
    let paths = Paths(
      base: files[0], ours: files[1], theirs: files[2], output: parsed.text(.output),
      workTree: parsed.text(.path), stateFolder: StateFolder.forProcess(explicit: parsed.text(.stateDir)))
    if schema == nil, kind == nil, let workTree = paths.workTree {
      schema = KindChoice.nonEmptySchema(besideDataFile: workTree)
    }
    let layout = RecordLayout(path: paths.naming)
    // The kind is OURS'; when OURS holds nothing (emptied, or new), THEIRS' or BASE's.
    let fileSystem = PosixFileSystem()
    let chooser =
      [paths.ours, paths.theirs, paths.base].first { ((try? fileSystem.stat($0))?.size ?? 0) > 0 }
      ?? paths.ours
    let choice: KindChoice
    do {
      choice = try KindChoice.choose(
        file: chooser, layout: layout, kindFlag: kind, schemaPath: schema, stateFolder: paths.stateFolder)
    } catch {
      streams.err(Shell.loadFailure(error))
      return 3
    }
    let merging = Merging(paths: paths, layout: layout, chooser: chooser)
    let result =
      KindDispatch.run(merging, choice)
      ?? .failure(.noKind(kind ?? ""))
    switch result {
    case .failure(let failure):
      streams.err(failure.message)
      return 3
    case .success(let conflicts) where conflicts.isEmpty:
      return 0
    case .success(let conflicts):
      for conflict in conflicts { streams.out(conflict.line) }
      let count = conflicts.count
      let where_ = paths.stateFolder?.conflictsPath(forDataFile: paths.naming) ?? ""
      streams.err(
        "recsh merge: \(count) conflict\(count == 1 ? "" : "s") in \(paths.naming); the file holds ours' "
          + "value\(count == 1 ? "" : "s") and \"\(where_)\" keeps the conflicts: open the file in recsh, "
          + "'conflicts' lists them, 'resolve REF FIELD ours|theirs|VALUE' settles each")
      return 1
    }
  }

  /// The three files merged as records of the chosen kind, the result written; the
  /// conflicts, or why it could not.
  private struct Merging: KindWork {
    var paths: Paths
    var layout: RecordLayout
    /// The file the kind was chosen by (which choosing it may have loaded).
    var chooser: String

    private func role(_ path: String) -> String {
      path == paths.ours ? "OURS" : path == paths.theirs ? "THEIRS" : "BASE"
    }

    /// The file at `path` (`role`) as records of `Root`: an error names the file and the
    /// kind it was read as.
    private func load<Root: Record>(_ path: String, _ preloaded: DataFile<Root>.Loaded?)
      throws(FileCommandFailure)
      -> DataFile<Root>.Loaded
    {
      if path == chooser, let preloaded { return preloaded }
      let loaded: DataFile<Root>.Loaded
      do {
        loaded = try DataFile<Root>.loadExisting(path, layout: layout)
      } catch {
        guard case .file = error else { throw .load(error) }
        throw .otherKind(
          role: role(path), path: path, kind: Root.kind, chooserRole: role(chooser), chooser: chooser,
          .unreadable(error))
      }
      if path != chooser, let warning = loaded.warnings.first {
        throw .otherKind(
          role: role(path), path: path, kind: Root.kind, chooserRole: role(chooser), chooser: chooser,
          .warning(warning))
      }
      return loaded
    }

    func run<Root: Record>(_ kind: Root.Type, preloaded: DataFile<Root>.Loaded?)
      -> Result<[MergeConflict], FileCommandFailure>
    {
      do throws(FileCommandFailure) {
        let ours = try load(paths.ours, preloaded)
        let base = try load(paths.base, preloaded)
        // BASE's bytes are not written over: they go at once (unless BASE is OURS or THEIRS).
        if paths.base != paths.ours && paths.base != paths.theirs { _ = base.takeImage() }
        let theirs = try load(paths.theirs, preloaded)
        let merged: RecordMerge<Root>
        do {
          merged = try RecordMerge(base: base.document, ours: ours.document, theirs: theirs.document)
        } catch {
          throw .cannotMerge(naming: paths.naming, error)
        }
        let fileSystem = PosixFileSystem()
        var hash = ours.hash ?? ""
        if !merged.isOurs || paths.output != nil {
          let target = paths.output ?? paths.ours
          do {
            // In OURS's layout: its records' bytes where they come from OURS, changed ones
            // patched over them, whole records from THEIRS as THEIRS has them.
            let document = try? Document(records: merged.records)
            if let document {
              hash =
                try DataFile<Root>.save(
                  document, over: ours.takeImage(), alternate: theirs.takeImage(), to: target, layout: layout,
                  using: fileSystem
                ).hash
            } else {
              hash = try DataFile<Root>.save(merged.records, to: target, layout: layout, using: fileSystem)
                .hash
            }
          } catch {
            throw .write(target: target, error)
          }
        }
        if !merged.conflicts.isEmpty {
          let file = ConflictFile(hash: hash, conflicts: merged.conflicts)
          guard let folder = paths.stateFolder else {
            throw .conflictsNotKept(nil)
          }
          do {
            try folder.prepare(using: fileSystem)
            try AtomicFile.save(
              bytes: file.encoded(), to: folder.conflictsPath(forDataFile: paths.naming), using: fileSystem)
          } catch {
            throw .conflictsNotKept(error)
          }
        }
        // recsh exits with its records alive, as a session does: the kernel takes the
        // memory back at once, where freeing a million records one by one takes a while.
        keptUntilExit = (base, ours, theirs, merged)
        return .success(merged.conflicts)
      } catch {
        return .failure(error)
      }
    }
  }
}

/// The documents of a merge, kept until the process exits (see `FileMerge.merge`).
nonisolated(unsafe) private var keptUntilExit: Any?
