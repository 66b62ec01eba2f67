/// Why an undo, redo or group operation was refused.
public enum HistoryError: Error, Equatable, Sendable {
  case nothingToUndo
  case nothingToRedo
  /// `operation` ("undo", "open", …) is not allowed while a group is open.
  case groupOpen(operation: String, group: String, origin: String?)
  /// `end` or `rollback` with no open group.
  case noOpenGroup(operation: String)
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
    }
  }
}
