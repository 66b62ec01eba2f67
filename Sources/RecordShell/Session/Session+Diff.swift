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
  /// log) and prints the difference between the documents; this session, its history,
  /// its selection and its log are not touched. A command that would fail fails the same
  /// way. The copy shares the document's storage until the command writes it, and then
  /// copies the records array once: O(records).
  func preview(_ command: ShellCommand) throws(SessionError) -> String {
    var scratch = self
    scratch.journal = nil
    _ = try scratch.execute(command)
    return DiffRenderer.render(
      RecordChanges(from: editor.document, to: scratch.editor.document), format: format)
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
