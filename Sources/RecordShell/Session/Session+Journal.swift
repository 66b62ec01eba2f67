import RecordKit

/// What to do with a journal left by a session that died.
public enum RecoveryChoice: Sendable {
  /// Refuse to open the file, saying what was found (scripts without a flag).
  case refuse
  /// `--recover`: replay the steps; they stay undoable.
  case recover
  /// `--discard-journal`: set the journal aside as a backup and start clean.
  case discard
}

extension Session {
  /// Opens (or recovers) the journal of the session's file. Returns warnings to show.
  mutating func attachJournal(base: String?, recovery: RecoveryChoice) throws(SessionError) -> [String] {
    guard let path = filePath else { return [] }
    let opening: JournalOpening
    do {
      opening = try Journal.open(forDataFile: path, base: base, kind: Root.kind, fileSystem: fileSystem)
    } catch {
      throw .locked(path: error.path, pid: error.pid)
    }
    switch opening {
    case .ready(let journal):
      self.journal = journal
      return []
    case .unavailable(let error):
      return [Self.journalUnavailable(path, error)]
    case .unreadable(let error):
      throw .journalUnreadable(path: path, error)
    case .damaged(let journal, let bytes, let error):
      guard recovery == .discard else {
        journal.abandon()
        throw .journal(error)
      }
      return try discard(journal, bytes: bytes, changes: nil, base: base)
    case .leftover(let journal, let leftover):
      switch recovery {
      case .refuse:
        journal.abandon()
        throw .journalFound(path: path, leftover)
      case .discard:
        return try discard(journal, bytes: leftover.bytes, changes: leftover.changeCount, base: base)
      case .recover:
        return try recover(leftover, journal: journal, base: base)
      }
    }
  }

  /// The one warning for a journal that cannot be created.
  static func journalUnavailable(_ path: String, _ error: SystemCallError) -> String {
    "cannot create the journal beside \"\(path)\" (\(error.summary)); crash recovery is off for this file"
  }

  /// `--discard-journal`: the journal's bytes go to a backup file beside it, then it starts clean.
  private mutating func discard(_ journal: Journal, bytes: [UInt8], changes: Int?, base: String?)
    throws(SessionError) -> [String]
  {
    let backup = journal.path + ".\(Int(Journal.wallClock())).bak"
    do throws(StorageError) {
      try AtomicFile.save(bytes: bytes, to: backup, using: fileSystem)
    } catch {
      journal.abandon()
      throw .storage(error)
    }
    do throws(SystemCallError) {
      try journal.reset(base: base, kind: Root.kind)
    } catch {
      journal.abandon()
      throw .storage(.failed(.save, path: journal.path, cause: error))
    }
    self.journal = journal
    let what =
      changes.map { "its \($0) change\($0 == 1 ? "" : "s") were not applied" } ?? "it was not applied"
    return ["set the journal aside as \"\(backup)\"; \(what)"]
  }

  private mutating func recover(_ leftover: LeftoverJournal, journal: Journal, base: String?)
    throws(SessionError)
    -> [String]
  {
    guard leftover.base == base else {
      journal.abandon()
      throw .journal(.baseMismatch)
    }
    do throws(JournalError) {
      if let numbers = leftover.numbers {
        do throws(DocumentError) {
          editor = Editor(
            document: try Document(renumbering: editor.document, by: numbers),
            undoLimit: editor.history.limit,
            clock: editor.clock)
        } catch {
          throw JournalError.badEntry(record: 0, reason: "the header's record numbers: \(error)")
        }
      }
      editor = try JournalReplay.replay(leftover, onto: editor)
    } catch {
      journal.abandon()
      throw .journal(error)
    }
    do throws(SystemCallError) {
      try journal.resume(validLength: leftover.validLength, records: leftover.recordCount)
    } catch {
      journal.abandon()
      throw .storage(.failed(.save, path: journal.path, cause: error))
    }
    self.journal = journal
    var warnings = [
      "recovered \(leftover.changeCount) change\(leftover.changeCount == 1 ? "" : "s") "
        + "from a session that ended abnormally; they are not saved yet"
    ]
    if let torn = leftover.tornTail {
      warnings.append("dropped \(torn) at the end of the journal (a write cut short)")
    }
    let groups = editor.history.openGroups
    for group in groups.reversed() {
      journal.append(.end)
      warnings.append("group \(group.displayName) was open when the session ended; closed and kept")
    }
    editor.closeAllGroups()
    journal.replayUndoable = editor.history.undoCount
    journal.replayRedoable = editor.history.redoCount
    return warnings
  }

  // MARK: Recording changes

  /// A command was performed: a new step, or part of the open group.
  func journalPerform(_ command: Command<Root>) {
    guard let journal else { return }
    // The bytes of `JournalEntry.perform(command.encoded()).payload`, written in place.
    journal.append { out in
      out += #"{"do": "#.utf8
      command.appendEncoded(to: &out)
      out.append(UInt8(ascii: "}"))
    }
    if editor.history.openGroups.isEmpty { journalPushed(journal) }
  }

  private func journalPushed(_ journal: Journal) {
    let limit = editor.history.limit
    journal.replayUndoable = limit > 0 ? min(limit, journal.replayUndoable + 1) : journal.replayUndoable + 1
    journal.replayRedoable = 0
  }

  func journalBegin(_ name: String?, origin: String?) {
    journal?.append(.begin(name: name, origin: origin))
  }

  /// `end`: when it closed the outermost group with changes, that made a step.
  func journalEnd(madeStep: Bool) {
    guard let journal else { return }
    journal.append(.end)
    if madeStep { journalPushed(journal) }
  }

  func journalRollback() {
    journal?.append(.rollback)
  }

  /// `undo`/`redo` of `count` steps: as undo/redo entries while a replay would
  /// have those steps, then (beyond them) as a snapshot of the document.
  func journalMoved(count: Int, undo: Bool) {
    guard let journal else { return }
    let available = undo ? journal.replayUndoable : journal.replayRedoable
    let moved = min(count, available)
    for _ in 0..<moved { journal.append(undo ? .undo : .redo) }
    if undo {
      journal.replayUndoable -= moved
      journal.replayRedoable += moved
    } else {
      journal.replayRedoable -= moved
      journal.replayUndoable += moved
    }
    if count > moved {
      // Each record with its number, which the journal's later entries name it by.
      let document = editor.document
      journal.append(
        .snapshot(
          document.records.indices.map { position in
            .object(
              JSONObject([
                "number": .number(document.number(at: position).description),
                "record": Root.fields.encodeForJournal(document.records[position]),
              ]))
          }))
      journal.replayUndoable = 0
      journal.replayRedoable = 0
    }
  }

  /// After a save: the journal starts again from the saved bytes (their `ContentHash`);
  /// open groups are re-opened in it.
  mutating func journalSaved(hash: String) -> [String] {
    guard let journal else { return [] }
    do throws(SystemCallError) {
      try journal.reset(base: hash, kind: Root.kind, numbers: editor.document.numberRuns)
    } catch {
      return ["cannot reset the journal \"\(journal.path)\" (\(error.summary)); crash recovery is off"]
    }
    for group in editor.history.openGroups {
      journal.append(.begin(name: group.name, origin: group.origin))
      for command in group.commands {
        journal.append(.applied(command.encoded()))
      }
    }
    return []
  }

  /// Writes the journal's buffer to its file: call before anything is shown.
  public func writeJournal() {
    journal?.write()
  }

  /// Before waiting for input: at the prompt, flushed to the disk; in a script, batched.
  public func syncJournal() {
    if isInteractive { journal?.sync() } else { journal?.writeBatched() }
  }

  /// A warning, once, when the journal could not be written.
  public func journalFailureReport() -> String? {
    journal?.takeFailureReport()
  }

  /// For tests: the session dies as a killed process would.
  mutating func simulateKill() {
    journal?.simulateKill()
    journal = nil
  }

  /// A normal exit: the journal is removed.
  public mutating func close() {
    journal?.write()
    journal?.remove()
    journal = nil
  }
}
