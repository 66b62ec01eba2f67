import RecordKit

/// What must hold for any bytes loaded as a data file, for both kinds: a thrown
/// `RecordFileError` is an answer, a trap or a failed precondition is a bug.
///
/// - Streaming records straight from the bytes and reading each record through
///   a tree load the same records or refuse the file with the same error.
/// - The reader reports offsets that grow and stay inside the file.
/// - A file that loads saves to bytes that load as the same records, and
///   saving those again gives the same bytes.
enum RecordFileCheck {
  static func check(_ bytes: UnsafeBufferPointer<UInt8>) {
    let array = Array(bytes)
    check(TaskRecord.self, bytes, array)
    check(ContactRecord.self, bytes, array)
    checkInferred(bytes)
  }

  /// A kind inferred from records admits them all: read again with the schema inference
  /// wrote, the records load as the same kind, with no violation; saved under it, they
  /// load back the same.
  static func checkInferred(_ bytes: UnsafeBufferPointer<UInt8>) {
    let inferred = Result { () throws(RecordFileError) in
      try RunTimeFile.decode(bytes, schema: nil, name: "fuzz")
    }
    guard case .success(let loaded) = inferred else { return }
    let schema: RecordSchema
    do {
      schema = try RecordSchema(reading: loaded.kind.document)
    } catch {
      preconditionFailure("the inferred schema is refused: \(error)")
    }
    let checked = Result { () throws(RecordFileError) in
      try RunTimeFile.decode(bytes, schema: schema, name: "fuzz")
    }
    guard case .success(let again) = checked else {
      preconditionFailure("records break the schema inferred from them: \(checked)")
    }
    precondition(again.document.records == loaded.document.records, "the schema's load differs")
    RunTimeKind.$current.withValue(loaded.kind) {
      let saved = RecordFile<RunTimeRecord>.encode(loaded.document.records)
      let reloaded = saved.withUnsafeBufferPointer { buffer in
        Result { () throws(RecordFileError) in try RunTimeFile.decode(buffer, schema: schema, name: "fuzz") }
      }
      guard case .success(let back) = reloaded, back.document.records == loaded.document.records else {
        preconditionFailure("saved records load as \(reloaded)")
      }
    }
  }

  static func check<Root: Record>(_ kind: Root.Type, _ bytes: UnsafeBufferPointer<UInt8>, _ array: [UInt8]) {
    var lastOffset = 0
    let streamed = Result { () throws(RecordFileError) in
      try RecordFile<Root>.decode(bytes) { offset in
        precondition(lastOffset <= offset && offset <= bytes.count, "offset \(offset) after \(lastOffset)")
        lastOffset = offset
      }.document.records
    }
    let tree = Result { () throws(RecordFileError) in
      try RecordFile<Root>.decode(array, streaming: false).document.records
    }
    precondition(streamed == tree, "streaming gave \(streamed), the tree \(tree)")
    guard case .success(let records) = streamed else {
      if case .failure(let error) = streamed {
        _ = error.description
        precondition(0 <= error.position.offset && error.position.offset <= bytes.count, "\(error)")
      }
      return
    }
    let saved = RecordFile<Root>.encode(records)
    let reloaded = Result { () throws(RecordFileError) in try RecordFile<Root>.decode(saved).document.records
    }
    guard case .success(let again) = reloaded, again == records else {
      preconditionFailure("saved records load as \(reloaded), not as \(records)")
    }
    precondition(RecordFile<Root>.encode(again) == saved, "a second save changed the bytes")
  }
}
