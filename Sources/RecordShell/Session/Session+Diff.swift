import RecordKit

extension Session {
  /// `diff FROM TO`: the record-level difference between two states, in the session's
  /// format. The document walks to each state and back in place (`Editor.compare`), so
  /// only the records the steps between them touch are read; afterwards the document, the
  /// history and the selection are as they were.
  mutating func diff(from: HistoryPoint, to: HistoryPoint) throws(SessionError) -> [UInt8] {
    let comparison = try compare(from, to)
    return DiffRenderer.renderBytes(
      RecordChanges(before: comparison.before, after: comparison.after), format: format)
  }

  /// The two states compared (`Editor.compare`), their errors the session's.
  mutating func compare(_ from: HistoryPoint, _ to: HistoryPoint) throws(SessionError) -> StateComparison<
    Root
  > {
    let points = (try editorPoint(from), try editorPoint(to))
    do {
      return try editor.compare(points.0, points.1)
    } catch {
      throw .history(error)
    }
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
    scratch.persistence = persistence.detached()
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

  /// The state `diff` names, as the editor knows it.
  private func editorPoint(_ point: HistoryPoint) throws(SessionError) -> EditorPoint {
    let history = editor.history
    switch point {
    case .now: return .now
    case .saved:
      guard persistence.identity != nil else { throw .neverSaved }
      guard let saved = history.savedState else { throw .savedStateDropped }
      return .state(saved)
    case .start: return .state(history.start)
    case .step(let number): return .state(number == 0 ? history.start : number)
    case .ago(let seconds):
      let now = history.time(ofState: history.current) ?? editor.clock()
      return .state(history.newestState(atOrBefore: now - seconds) ?? history.start)
    }
  }
}
