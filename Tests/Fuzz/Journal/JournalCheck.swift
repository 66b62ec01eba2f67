import RecordKit
import RecordShell

/// What must hold for any journal a crash (or a disk) leaves behind: a thrown
/// `JournalError` is an answer, a trap or a failed precondition is a bug.
///
/// The first byte of an input says how to read the rest. With bit 0 clear the
/// rest is the journal's bytes as they are; with it set, each line of the rest
/// is a payload, framed with the right sequence numbers and checksums (after a
/// task header when bit 1 is set), and the top six bits cut that many bytes
/// off the end, as a torn write would. So the fuzzer reaches entry decoding
/// and replay without having to forge a CRC-32.
///
/// - Framing keeps exactly the bytes its records frame, and a torn tail is
///   reported exactly when bytes were dropped.
/// - Reading the log back onto a two-task document either fails with an error or gives
///   a tree that every move through (undo all, redo all, goto each state) either makes
///   or refuses with an error, never a trap: the steps are checked against the document
///   (`Editor.checkedBelow`), as they are when a session reads a log back.
/// - The same bytes as a merge's conflicts file (kept beside the data file like the
///   log, and as open to damage): read or refused, never a trap; one that reads writes
///   bytes that read back the same.
enum JournalCheck {
  static let header = Array(#"{"header": {"base": null, "pid": 0, "time": 0, "kind": "task"}}"#.utf8)

  /// The document the journals are replayed onto.
  static let start: Document<TaskRecord> = {
    let file = #"[{"id": "a1aaaaaa", "title": "one", "tags": ["x"]}, {"id": "b2bbbbbb", "title": "two"}]"#
    do {
      return try RecordFile<TaskRecord>.decode(Array(file.utf8)).document
    } catch {
      preconditionFailure("the start document does not load: \(error)")
    }
  }()

  static func check(_ input: UnsafeBufferPointer<UInt8>) {
    guard let control = input.first else { return }
    let rest = input.dropFirst()
    let bytes =
      control & 1 == 0
      ? Array(rest) : framed(rest, withHeader: control & 2 != 0, cut: Int(control >> 2))
    checkFraming(bytes)
    checkConflictFile(bytes)
    let leftover: LeftoverJournal?
    do {
      leftover = try Journal.leftover(bytes, modificationTime: 0)
    } catch {
      _ = error.description
      return
    }
    guard let leftover else { return }
    var editor: Editor<TaskRecord>
    do {
      let restored = try JournalReplay.restore(leftover, onto: Editor(document: start))
      editor = restored.editor
      editor.place(at: restored.savedState)
    } catch {
      _ = error.description
      return
    }
    editor.checkedBelow = editor.history.nextNumber
    checkHistory(editor)
  }

  /// A journal whose records are the lines of `lines`, less `cut` bytes at the end.
  static func framed(_ lines: Slice<UnsafeBufferPointer<UInt8>>, withHeader: Bool, cut: Int) -> [UInt8] {
    var payloads = lines.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(
      Array.init)
    if withHeader { payloads.insert(header, at: 0) }
    var bytes = JournalFraming.magic
    for (index, payload) in payloads.enumerated() {
      bytes += JournalFraming.record(sequence: UInt64(index), payload: payload)
    }
    bytes.removeLast(min(cut, bytes.count))
    return bytes
  }

  static func checkConflictFile(_ bytes: [UInt8]) {
    guard let file = try? ConflictFile.decode(bytes) else { return }
    let again = try? ConflictFile.decode(file.encoded())
    precondition(again == file, "a conflicts file reads back as \(String(describing: again)), not \(file)")
  }

  static func checkFraming(_ bytes: [UInt8]) {
    guard let contents = try? JournalFraming.read(bytes) else { return }
    precondition(contents.validLength <= bytes.count)
    precondition((contents.tornTail == nil) == (contents.validLength == bytes.count), "torn tail misreported")
    guard contents.validLength > 0 else {
      precondition(contents.payloads.isEmpty)
      return
    }
    var reframed = JournalFraming.magic
    for (index, payload) in contents.payloads.enumerated() {
      reframed += JournalFraming.record(sequence: UInt64(index), payload: payload)
    }
    precondition(reframed[...] == bytes[..<contents.validLength], "the records kept are not the bytes read")
  }

  /// Every move through the tree read back either works or throws; after undoing all the
  /// way back and redoing as far, undoing that far again gives the start records back.
  static func checkHistory(_ restored: Editor<TaskRecord>) {
    var editor = restored
    let records = editor.document.records
    var undone = 0
    while editor.history.canUndo, (try? editor.undo(1)) != nil { undone += 1 }
    let bottom = editor.document.records
    var redone = 0
    while editor.history.canRedo, (try? editor.redo(1)) != nil { redone += 1 }
    for _ in 0..<redone { _ = try? editor.undo(1) }
    precondition(editor.document.records == bottom, "undoing what was redone did not give the records back")
    for state in 0..<editor.history.nextNumber { _ = try? editor.goto(state) }
    _ = records
    _ = undone
  }
}
