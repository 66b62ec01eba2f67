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
enum RecordFileCheck {
  static func check(_ bytes: UnsafeBufferPointer<UInt8>) {
    let array = Array(bytes)
    for layout in RecordLayout.allCases {
      check(TaskRecord.self, bytes, array, layout)
      check(ContactRecord.self, bytes, array, layout)
      checkInferred(bytes, layout)
    }
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
    for target in RecordLayout.allCases {
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
}
