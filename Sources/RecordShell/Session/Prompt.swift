/// What the interactive prompt shows, in parts, so that the executable can
/// colour each one: `tasks.json k3x9p2aa* (review)> `.
///
/// Every part is already escaped for a terminal (control characters shown as
/// `\u{…}`): a file or group name comes from the user, and the prompt is only
/// ever printed to a terminal.
public struct Prompt: Equatable, Sendable {
  /// The innermost open group, and how many open groups enclose it.
  struct Group: Equatable, Sendable {
    var name: String
    var enclosing: Int
  }

  /// The data file's last path component, or `(unnamed)`.
  public var fileName: String
  public var selectedID: String?
  public var isDirty: Bool
  var group: Group?

  init(fileName: String, selectedID: String?, isDirty: Bool, group: Group?) {
    self.fileName = TextCell.escaped(fileName)
    self.selectedID = selectedID.map(TextCell.escaped)
    self.isDirty = isDirty
    self.group = group.map { Group(name: TextCell.escaped($0.name), enclosing: $0.enclosing) }
  }

  /// The group part without its parentheses: `review`, or `review +1` inside another group.
  public var groupText: String? {
    group.map { $0.enclosing > 0 ? "\($0.name) +\($0.enclosing)" : $0.name }
  }

  /// The prompt without colour.
  public var text: String {
    var text = fileName
    if let selectedID { text += " " + selectedID }
    if isDirty { text += "*" }
    if let groupText { text += " (\(groupText))" }
    return text + "> "
  }
}

extension Session {
  /// The prompt's parts: file, selected record, unsaved mark, open groups.
  public var prompt: Prompt {
    let fileName =
      filePath.map { path in String(path.split(separator: "/").last ?? Substring(path)) } ?? "(unnamed)"
    let groups = editor.openGroups
    return Prompt(
      fileName: fileName, selectedID: selectedID.map(reference(toRecordWithID:)), isDirty: isDirty,
      group: groups.last.map { Prompt.Group(name: $0.name ?? "group", enclosing: groups.count - 1) })
  }

  /// The prompt without colour: `tasks.json k3x9p2aa* (review)> `.
  var promptText: String { prompt.text }
}
