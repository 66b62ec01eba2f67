/// The record kinds recsh ships, listed once: `--kind` looks its name up here, its error
/// and `--help` list the names from here, and the shell is started for the kind found.
public enum KindRegistry {
  /// Every shipped kind, the default first.
  public static let shipped: [any Record.Type] = [TaskRecord.self, ContactRecord.self]

  /// The kind a file gets when nothing says otherwise.
  public static var defaultKind: any Record.Type { TaskRecord.self }

  /// The shipped kind named `name` (`task`, `contact`), if there is one.
  public static func kind(named name: String) -> (any Record.Type)? {
    shipped.first { $0.kind == name }
  }

  /// The names in order, for messages: `task and contact`, `task, contact and book`.
  public static var namesInWords: String {
    let names = shipped.map { $0.kind }
    guard names.count > 1, let last = names.last else { return names.joined() }
    return names.dropLast().joined(separator: ", ") + " and " + last
  }
}
