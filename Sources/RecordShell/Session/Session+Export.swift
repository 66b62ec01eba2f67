import RecordKit

extension Session {
  /// `insert [@N] JSON`: the record `text` describes, read as the file's records are (strict
  /// JSON, the kind's types, a run-time kind's schema), put before the record at
  /// `position` (the end when `nil`) as one undo step, and selected. A kind without a key
  /// gives it a new internal identity, as `new` does.
  mutating func insertRecord(_ text: String, at position: Int?) throws(SessionError) -> [Reply] {
    let bytes = Array(text.utf8)
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: bytes)
    } catch {
      throw .badRecord(error.description)
    }
    guard case .object(let object) = value else {
      throw .badRecord("expected an object, found \(value.kindDescription)")
    }
    let table = Root.fields
    var generator = SystemRandomNumberGenerator()
    let identity = table.key == nil ? "#" + editor.document.newID(using: &generator) : nil
    let record: Root
    do {
      record = try table.decode(object, identity: identity)
      try bytes.withUnsafeBufferPointer { (buffer) throws(RecordFileError) in
        try table.checkRecords?([record], buffer, .lines)
      }
    } catch let error as RecordDecodingError {
      throw .badRecord(error.description)
    } catch let error as RecordFileError {
      throw .badRecord(error.description)
    } catch {
      throw .badRecord(String(describing: error))
    }
    try edit { (editor) throws(EditError) in
      try editor.insertRecord(record, at: position ?? editor.document.count)
    }
    selectedID = record.id
    return [.info("New record \(reference(toRecordWithID: record.id))")]
  }

  /// `export[!] FILE [FROM [TO]]`: writes the script that takes the document from state
  /// FROM (the saved one by default) to TO (now), as `ExportScript` makes it, atomically.
  /// An existing FILE is refused unless `force`; a folder or a place that cannot be written
  /// is refused by the write, with its errno. The states are compared as `diff` compares
  /// them (`Editor.compare`: no copy of the document); nothing in the session changes.
  mutating func export(to path: String, from: HistoryPoint?, to: HistoryPoint?, force: Bool)
    throws(SessionError)
    -> [Reply]
  {
    let fromPoint = from ?? .saved
    let toPoint = to ?? .now
    let script = ExportScript(try compare(fromPoint, toPoint))
    if !force {
      let exists: Bool
      do {
        // (A folder is left to the write, which names what it is.)
        exists =
          try FileIdentity.current(at: path, using: fileSystem) != nil
          && (try? fileSystem.stat(path).kind) != .directory
      } catch {
        throw .storage(error)
      }
      if exists { throw .fileExists(path: path, command: "export") }
    }
    let states = "\(Self.describe(fromPoint)) to \(Self.describe(toPoint))"
    let source = filePath.map(ScriptWords.quoted) ?? "a document never saved"
    let comments = [
      "recsh script: the edits to \(source) from \(states), exported \(HistoryRenderer.date(editor.clock()))",
      "Run it on the file as it was then: recsh -s \(ScriptWords.word(path)) FILE. Every value it",
      "replaces is checked first; on a file changed since, it stops at the first mismatch, changing nothing.",
    ]
    let bytes = script.text(comments: comments, groupName: "Replay of \(states)")
    do {
      try AtomicFile.save(bytes: bytes, to: path, using: fileSystem)
    } catch {
      throw .storage(error)
    }
    var parts: [String] = []
    if script.editedCount > 0 { parts.append("\(script.editedCount) edited") }
    if script.insertedCount > 0 { parts.append("\(script.insertedCount) added") }
    if script.deletedCount > 0 { parts.append("\(script.deletedCount) deleted") }
    let summary = parts.isEmpty ? "no changes" : parts.joined(separator: ", ") + " (records)"
    return [.info("Exported \(summary) to \(path)")]
  }

  /// A state as the script's header names it.
  private static func describe(_ point: HistoryPoint) -> String {
    switch point {
    case .step(let number): "step \(number)"
    case .saved: "the saved state"
    case .now: "now"
    case .start: "the start"
    case .ago(let seconds): "\(Int(seconds))s back"
    }
  }
}
