import RecordKit

extension Session {
  /// `diff FROM TO`: the record-level difference between two states, in the session's
  /// format. Each state's document is made on a copy (`Editor.document(atState:)`); the
  /// document, the history and the selection are not changed.
  func diff(from: HistoryPoint, to: HistoryPoint) throws(SessionError) -> String {
    let old = try document(at: from)
    let new = try document(at: to)
    return DiffRenderer.render(RecordChanges(from: old, to: new), format: format)
  }

  /// `preview COMMAND`: runs the command on a scratch session (this one's copy, with no
  /// log), takes its document back (`Editor.takeBack`) and prints what the command changed;
  /// this session, its history, its selection and its log are as they were. The scratch
  /// session is handed the document, not a copy: it is edited in place and then reverted,
  /// the editor's own commands both ways, so a preview costs the records the command
  /// touches, not the document. A command that would fail fails the same way, with the
  /// document as it was.
  mutating func preview(_ command: ShellCommand) throws(SessionError) -> String {
    let state = editor.history.current
    let groups = editor.openGroups
    let nextNumber = editor.document.nextNumber
    var scratch = self
    scratch.journal = nil
    // While the scratch session runs, this one holds an empty document, so the scratch's
    // is the only reference and no write copies it.
    editor.replaceDocument(Document())
    var failure: SessionError?
    do {
      _ = try scratch.execute(command)
    } catch {
      failure = error
    }
    let changes = scratch.editor.takeBack(to: state, openGroups: groups, nextNumber: nextNumber)
    editor.replaceDocument(scratch.editor.document)
    if let failure { throw failure }
    return DiffRenderer.render(changes, format: format)
  }

  /// The document at a state `diff` names.
  func document(at point: HistoryPoint) throws(SessionError) -> Document<Root> {
    let history = editor.history
    let state: Int
    switch point {
    case .now: return editor.document
    case .saved:
      guard identity != nil else { throw .neverSaved }
      guard let saved = history.savedState else { throw .savedStateDropped }
      state = saved
    case .start: state = history.start
    case .step(let number): state = number == 0 ? history.start : number
    case .ago(let seconds):
      let now = history.time(ofState: history.current) ?? editor.clock()
      state = history.newestState(atOrBefore: now - seconds) ?? history.start
    }
    do {
      return try editor.document(atState: state)
    } catch {
      throw .history(error)
    }
  }
}
