/// Why an undo, redo or group operation was refused.
public enum HistoryError: Error, Equatable, Sendable {
  case nothingToUndo
  case nothingToRedo
  /// `operation` ("undo", "open", …) is not allowed while a group is open.
  case groupOpen(operation: String, group: String, origin: String?)
  /// `end` or `rollback` with no open group.
  case noOpenGroup(operation: String)
  /// `goto N` past the newest step (`newest`), or below 0.
  case noSuchStep(Int, newest: Int)
  /// `goto N` to a step the undo limit dropped (or `history clear` removed).
  case stepDropped(Int)
  /// A step read back from the log does not fit the records (the log is not this file's).
  case stepDoesNotFit(Int)
}

extension HistoryError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .nothingToUndo: "nothing to undo"
    case .nothingToRedo: "nothing to redo"
    case .groupOpen(let operation, let group, let origin):
      "cannot \(operation) while group \(group)\(origin.map { " (opened at \($0))" } ?? "") is open; "
        + "close it with 'end' or discard it with 'rollback'"
    case .noOpenGroup(let operation):
      "'\(operation)' without an open group; 'begin [NAME]' opens one"
    case .noSuchStep(let step, let newest):
      newest == 0
        ? "no step \(step): there are no steps yet"
        : "no step \(step): steps are numbered 1 to \(newest), 0 is the start"
    case .stepDoesNotFit(let step):
      "step \(step), read from the history, does not fit the records as they are; it was not applied"
    case .stepDropped(let step):
      "step \(step) is no longer kept (dropped by the undo limit); 'history all' lists the kept ones"
    }
  }
}
