import RecordKit

/// What must hold for any bytes loaded as a data file, for both kinds and both layouts
/// (an array, JSON Lines): a thrown
/// `RecordFileError` is an answer, a trap or a failed precondition is a bug.
///
/// - Streaming records straight from the bytes and reading each record through
///   a tree load the same records or refuse the file with the same error.
/// - The reader reports offsets that grow and stay inside the file.
/// - A file that loads saves to bytes that load as the same records, and
///   saving those again gives the same bytes; saved in the other layout, it loads as
///   the same records too.
/// - Saved over its own bytes (`FileImage`) after an edit script made from the input
///   (sets of the title and of a custom field, deletions, new records), the file loads as
///   the edited records; with every edit undone, the save gives back the input's bytes.
/// - A run-time kind's records, inferred or checked against a schema with a key, as the
///   reader reads them (members marked, checked and keyed as read) and through a tree
///   (checked and keyed after the read) load as the same records or fail the same way.
enum RecordFileCheck {
  static func check(_ bytes: UnsafeBufferPointer<UInt8>) {
    let array = Array(bytes)
    for layout in [RecordLayout.array, .lines] {
      check(TaskRecord.self, bytes, array, layout)
      check(ContactRecord.self, bytes, array, layout)
      checkInferred(bytes, layout)
      checkBothReads(bytes, layout, schema: nil)
      checkBothReads(bytes, layout, schema: keyedSchema())
    }
  }

  /// A schema with a string key and a rule or two on the kind of records the seeds hold
  /// (made for each input: a schema is not `Sendable`, so it cannot be a global).
  static func keyedSchema() -> RecordSchema {
    let text = #"""
      {"x-recsh-key": "id", "properties": {"id": {"type": "string", "pattern": "^[a-z0-9]"},
       "title": {"type": "string", "minLength": 1, "maxLength": 40},
       "priority": {"type": "integer", "minimum": 1, "maximum": 5}}}
      """#
    do {
      return try RecordSchema(reading: JSONValue.parse(bytes: Array(text.utf8)))
    } catch {
      preconditionFailure("the check's schema is refused: \(error)")
    }
  }

  /// The read that marks, checks and keys each record as it goes against the read
  /// through a tree that does all that after it: the same records (identities included)
  /// or the same error.
  static func checkBothReads(
    _ bytes: UnsafeBufferPointer<UInt8>, _ layout: RecordLayout, schema: RecordSchema?
  ) {
    func load(streaming: Bool) -> Result<[RunTimeRecord], RecordFileError> {
      Result { () throws(RecordFileError) in
        try RunTimeFile.decode(bytes, layout: layout, schema: schema, name: "fuzz", streaming: streaming)
          .document.records
      }
    }
    let streamed = load(streaming: true)
    let tree = load(streaming: false)
    precondition(streamed == tree, "read as it goes: \(streamed); through a tree: \(tree)")
  }

  /// A kind inferred from records admits them all: read again with the schema inference
  /// wrote, the records load as the same kind, with no violation; saved under it, they
  /// load back the same.
  static func checkInferred(_ bytes: UnsafeBufferPointer<UInt8>, _ layout: RecordLayout) {
    let inferred = Result { () throws(RecordFileError) in
      try RunTimeFile.decode(bytes, layout: layout, schema: nil, name: "fuzz")
    }
    guard case .success(let loaded) = inferred else { return }
    let schema: RecordSchema
    do {
      schema = try RecordSchema(reading: loaded.kind.document)
    } catch {
      preconditionFailure("the inferred schema is refused: \(error)")
    }
    let checked = Result { () throws(RecordFileError) in
      try RunTimeFile.decode(bytes, layout: layout, schema: schema, name: "fuzz")
    }
    guard case .success(let again) = checked else {
      preconditionFailure("records break the schema inferred from them: \(checked)")
    }
    precondition(again.document.records == loaded.document.records, "the schema's load differs")
    RunTimeKind.$current.withValue(loaded.kind) {
      let saved = RecordFile<RunTimeRecord>.encode(loaded.document.records, layout: layout)
      let reloaded = saved.withUnsafeBufferPointer { buffer in
        Result { () throws(RecordFileError) in
          try RunTimeFile.decode(buffer, layout: layout, schema: schema, name: "fuzz")
        }
      }
      guard case .success(let back) = reloaded, back.document.records == loaded.document.records else {
        preconditionFailure("saved records load as \(reloaded)")
      }
    }
  }

  static func check<Root: Record>(
    _ kind: Root.Type, _ bytes: UnsafeBufferPointer<UInt8>, _ array: [UInt8], _ layout: RecordLayout
  ) {
    var lastOffset = 0
    let streamed = Result { () throws(RecordFileError) in
      try RecordFile<Root>.decode(bytes, layout: layout) { offset in
        precondition(lastOffset <= offset && offset <= bytes.count, "offset \(offset) after \(lastOffset)")
        lastOffset = offset
      }.document.records
    }
    let tree = Result { () throws(RecordFileError) in
      try RecordFile<Root>.decode(array, layout: layout, streaming: false).document.records
    }
    precondition(streamed == tree, "streaming gave \(streamed), the tree \(tree)")
    guard case .success(let records) = streamed else {
      if case .failure(let error) = streamed {
        _ = error.description
        precondition(0 <= error.position.offset && error.position.offset <= bytes.count, "\(error)")
      }
      return
    }
    checkImage(Root.self, array, layout)
    for target in [RecordLayout.array, .lines] {
      let saved = RecordFile<Root>.encode(records, layout: target)
      let reloaded = Result { () throws(RecordFileError) in
        try RecordFile<Root>.decode(saved, layout: target).document.records
      }
      guard case .success(let again) = reloaded, again == records else {
        preconditionFailure("saved records (\(target)) load as \(reloaded), not as \(records)")
      }
      precondition(RecordFile<Root>.encode(again, layout: target) == saved, "a second save changed the bytes")
    }
  }

  /// The edit script: the input's bytes pick each edit and the record it falls on.
  static func checkImage<Root: Record>(_ kind: Root.Type, _ bytes: [UInt8], _ layout: RecordLayout) {
    guard let loaded = try? RecordFile<Root>.decode(bytes, layout: layout) else { return }
    let document = loaded.document
    guard
      let image = FileImage(
        written: bytes, layout: layout, ids: IDList(count: document.count, id: document.id(at:)),
        lineage: document.lineage)
    else {
      precondition(layout == .array && !bytes.contains(UInt8(ascii: "[")), "no image of a file that loaded")
      return
    }
    precondition(image.rewrite(document).heldBytes == bytes, "an unedited save changed the bytes")
    var editor = Editor(document: document, undoLimit: 0)
    var steps = 0
    for (index, byte) in bytes.prefix(12).enumerated() {
      let count = editor.document.count
      let position = count == 0 ? 0 : Int(byte) % count
      let outcome: EditOutcome<Root>?
      switch byte % 4 {
      case 0 where count > 0:
        outcome = try? editor.set(
          [
            FieldAssignment(
              Root.fields.fields[min(1, Root.fields.fields.count - 1)].name, .quoted("v\(index)"))
          ], at: position)
      case 1 where count > 0:
        outcome = try? editor.set(
          [FieldAssignment("zz\(byte % 3)", .quoted("\(index)"), createsCustomField: true)], at: position)
      case 2 where count > 0:
        outcome = try? editor.deleteRecord(at: position)
      default:
        outcome = try? editor.newRecord(id: "fuzz\(index)", [])
      }
      if let outcome, outcome.command != nil { steps += 1 }
    }
    let edited = image.rewrite(editor.document)
    let reloaded = try? RecordFile<Root>.decode(edited.heldBytes ?? [], layout: layout)
    precondition(
      reloaded?.document.records == editor.document.records, "the edited save loads as other records")
    if steps > 0 { _ = try? editor.undo(steps) }
    precondition(
      image.rewrite(editor.document).heldBytes == bytes, "undoing every edit did not give the bytes back")
  }
}
