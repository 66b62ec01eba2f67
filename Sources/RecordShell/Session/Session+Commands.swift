import RecordKit

extension Session {
  mutating func newRecord(_ assignments: [FieldAssignment]) throws(SessionError) -> [Reply] {
    var assignments = assignments
    let id = try newRecordID(taking: &assignments)
    try edit { (editor) throws(EditError) in try editor.newRecord(id: id, assignments) }
    selectedID = id
    return [.info("New record \(reference(toRecordWithID: id))")]
  }

  /// The identity of a new record, by the kind's key: the value given for it (taken out of
  /// `assignments`, checked like a `set` of it: `new id 7f3a9c21 title X` for any kind),
  /// else a random string for an `id` string key, the next integer for an integer key. A
  /// key of another name must be given. A kind without a key gets an internal `#` number,
  /// which is never written to the file.
  private func newRecordID(taking assignments: inout [FieldAssignment]) throws(SessionError) -> String {
    let table = Root.fields
    var generator = SystemRandomNumberGenerator()
    guard let key = table.key else {
      return "#" + editor.document.newID(using: &generator)
    }
    if let index = assignments.firstIndex(where: { $0.field == key.name }) {
      let assignment = assignments.remove(at: index)
      guard let field = table.field(named: key.name) else { throw .edit(.field(.readOnly(key.name))) }
      let value: JSONValue
      do {
        value = try field.parseCheckedJSON(assignment.value)
      } catch {
        throw .edit(.field(error))
      }
      let identity: String
      switch value {
      case .string(let text) where !text.isEmpty: identity = text
      case .number(let spelling): identity = spelling
      default:
        throw .edit(.field(.invalidValue(field: key.name, expected: "a non-empty string", found: "\"\"")))
      }
      guard !editor.document.contains(id: identity) else { throw .edit(.duplicateID(identity)) }
      return identity
    }
    if key.isInteger {
      var highest = 0
      for record in editor.document.records { highest = max(highest, Int(record.id) ?? 0) }
      return String(highest + 1)
    }
    guard key.name == "id" else { throw .edit(.field(.requiredMissing(key.name))) }
    return editor.document.newID(using: &generator)
  }

  /// How messages and the prompt name the record with identity `id`: its key, or, in a
  /// kind without one, `@N`, its position now.
  func reference(toRecordWithID id: String) -> String {
    guard Root.fields.key == nil else { return id }
    return editor.document.position(ofID: id).map { "@\($0 + 1)" } ?? id
  }

  mutating func delete(_ ref: String?) throws(SessionError) -> [Reply] {
    let (id, position) = try target(ref, for: "delete")
    let name = reference(toRecordWithID: id)
    try edit { (editor) throws(EditError) in try editor.deleteRecord(at: position) }
    if selectedID == id { selectedID = nil }
    return [.info("Deleted record \(name)")]
  }

  /// The record a REF names, or the selected one when there is no REF.
  func record(_ ref: String?, for command: String) throws(SessionError) -> Root {
    guard let ref else {
      guard let record = selectedRecord else { throw .noSelection(command: command) }
      return record
    }
    do {
      return editor.document.records[try editor.document.resolve(ref)]
    } catch {
      throw .ref(error)
    }
  }

  /// The id and position of the record REF names (the selected one by default),
  /// without copying the record.
  mutating func target(_ ref: String?, for command: String) throws(SessionError) -> (
    id: String, position: Int
  ) {
    guard let ref else {
      guard let selectedID else { throw .noSelection(command: command) }
      return (selectedID, try selectedRecordPosition(command))
    }
    // A whole id is its own answer: no need to read the record. (Records without a
    // key have internal identities, which no REF may name.)
    if Root.fields.key != nil, let position = editor.document.position(ofID: ref) { return (ref, position) }
    do {
      let position = try editor.document.resolve(ref)
      return (editor.document.id(at: position), position)
    } catch {
      throw .ref(error)
    }
  }

  /// The selected record's position: the hint when it still holds the selected
  /// id (a compare of two short strings), else a lookup.
  private mutating func selectedRecordPosition(_ command: String) throws(SessionError) -> Int {
    guard let selectedID else { throw .noSelection(command: command) }
    if selectedPosition < editor.document.count, editor.document.id(at: selectedPosition) == selectedID {
      return selectedPosition
    }
    guard let position = editor.document.position(ofID: selectedID) else {
      throw .noSelection(command: command)
    }
    selectedPosition = position
    return position
  }

  /// Runs an edit of the editor and logs what it did (a step, or a change in the open
  /// group); its error becomes the session's.
  mutating func edit(_ body: (inout Editor<Root>) throws(EditError) -> EditOutcome<Root>) throws(SessionError)
  {
    do {
      try persistence.edit(body)
    } catch {
      throw .edit(error)
    }
  }

  mutating func endGroup() throws(SessionError) -> [Reply] {
    do {
      let name = editor.openGroups.last?.displayName ?? ""
      let closing = try persistence.end()
      switch closing {
      case .empty: return [.info("Closed \(name) (no changes)")]
      case .recorded(let command, _): return [.info("Recorded: \(command.name)")]
      case .joinedOuter: return []
      }
    } catch {
      throw .history(error)
    }
  }

  mutating func rollback() throws(SessionError) -> [Reply] {
    do {
      let (group, reverted) = try persistence.rollback()
      dropStaleSelection()
      return [
        .info("Rolled back \(group.displayName): \(reverted) change\(reverted == 1 ? "" : "s") reverted")
      ]
    } catch {
      throw .history(error)
    }
  }

  /// `undo N` / `redo N`.
  mutating func move(_ count: Int, undo: Bool) throws(SessionError) -> [Reply] {
    do {
      let move = try persistence.travel { (editor) throws(HistoryError) in
        undo ? try editor.undo(count) : try editor.redo(count)
      }
      dropStaleSelection()
      return [
        .output(Self.describe(undo ? "Undid" : "Redid", undo ? move.reverted : move.applied, asked: count))
      ]
    } catch {
      // A move that stopped at a step that does not fit still went part of the way.
      dropStaleSelection()
      throw .history(error)
    }
  }

  /// `goto N`, `earlier SPAN`, `later SPAN`: where the document went, and what was reverted
  /// and applied on the way.
  mutating func travel(_ body: (inout Editor<Root>) throws(HistoryError) -> HistoryMove) throws(SessionError)
    -> [Reply]
  {
    let move: HistoryMove
    do {
      move = try persistence.travel(body)
    } catch {
      dropStaleSelection()
      throw .history(error)
    }
    dropStaleSelection()
    let start = editor.history.start
    let name = { (state: Int) in state == start ? "the start" : "step \(state)" }
    var lines: [String] = []
    switch move.stopped {
    case .oldest?:
      lines.append(move.moved ? "Stopped at the oldest state kept" : "Already at the oldest state kept")
    case .newest?: lines.append(move.moved ? "Stopped at the newest state" : "Already at the newest state")
    case nil: if !move.moved { lines.append("Already at \(name(move.to))") }
    }
    if move.moved {
      lines.append(
        "At \(name(move.to)) (from \(name(move.from))): \(move.revertedCount) undone, \(move.appliedCount) redone"
      )
    }
    return [.output(lines.joined(separator: "\n"))]
  }

  /// `history clear`: the history is dropped; the saved state is the new start.
  mutating func clearHistory() throws(SessionError) -> [Reply] {
    do {
      try editor.refuseInsideGroup("clear the history")
    } catch {
      throw .history(error)
    }
    guard !isDirty else { throw .clearNeedsSave(count: unsavedChangeCount) }
    let dropped = editor.history.keptCount
    if isInteractive && !clearRefused && dropped > 0 {
      clearRefused = true
      throw .confirmClear(steps: dropped)
    }
    return [.info("Cleared the history (\(dropped) step\(dropped == 1 ? "" : "s"))")]
      + persistence.clearHistory().map(Reply.warning)
  }

  /// "Undid: Set title" — or, for several, one line each and how many when fewer than asked.
  static func describe(_ verb: String, _ names: [String], asked: Int) -> String {
    var lines = names.map { "\(verb): \($0)" }
    if names.count < asked {
      lines.append(
        "(\(names.count) of \(asked) step\(asked == 1 ? "" : "s"): no more to \(verb == "Undid" ? "undo" : "redo"))"
      )
    }
    return lines.joined(separator: "\n")
  }

  private mutating func dropStaleSelection() {
    if let selectedID, !editor.document.contains(id: selectedID) { self.selectedID = nil }
  }

  mutating func quit(force: Bool) throws(SessionError) -> [Reply] {
    if force { return [.quit] }
    do {
      try editor.refuseInsideGroup("quit")
    } catch {
      throw .history(error)
    }
    guard isDirty, isInteractive, !quitRefused else { return [.quit] }
    quitRefused = true
    throw .unsavedChanges(operation: "quit", count: unsavedChangeCount, file: filePath)
  }
}
