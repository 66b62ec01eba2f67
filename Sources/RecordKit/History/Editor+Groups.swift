extension Editor {
  /// Opens a group; groups nest. `origin` says where (`script.rsh:3`) for later messages.
  public mutating func begin(_ name: String?, origin: String? = nil) {
    history.openGroups.append(History.OpenGroup(name: name, origin: origin))
  }

  /// Closes the innermost group. Closing the outermost one records everything
  /// since its `begin` as one step; an empty group records nothing.
  /// Returns the command the group became, if it did anything.
  @discardableResult
  public mutating func end() throws(HistoryError) -> Command<Root>? {
    guard let group = history.openGroups.popLast() else { throw .noOpenGroup(operation: "end") }
    guard !group.commands.isEmpty else { return nil }
    let command = Command<Root>.group(name: group.name, group.commands)
    history.record(command, at: clock())
    return command
  }

  /// Reverts and discards everything since the innermost `begin`, and closes that group.
  /// Returns the group and how many changes were reverted.
  @discardableResult
  public mutating func rollback() throws(HistoryError) -> (group: History<Root>.OpenGroup, reverted: Int) {
    guard let group = history.openGroups.popLast() else { throw .noOpenGroup(operation: "rollback") }
    for command in group.commands.reversed() {
      command.revert(in: &document)
    }
    return (group, group.commands.reduce(0) { $0 + $1.changeCount })
  }

  /// Closes every open group and keeps their work, as at the end of input.
  /// Returns the groups that were open, outermost first.
  @discardableResult
  public mutating func closeAllGroups() -> [History<Root>.OpenGroup] {
    let groups = history.openGroups
    while !history.openGroups.isEmpty {
      _ = try? end()
    }
    return groups
  }

  /// Undoes up to `count` steps; returns the names of the steps undone, most recent first.
  public mutating func undo(_ count: Int = 1) throws(HistoryError) -> [String] {
    try refuseInsideGroup("undo")
    guard history.canUndo else { throw .nothingToUndo }
    var names: [String] = []
    while names.count < count, let command = history.stepBack() {
      command.revert(in: &document)
      names.append(command.name)
    }
    return names
  }

  /// Redoes up to `count` steps; returns the names of the steps redone, oldest first.
  public mutating func redo(_ count: Int = 1) throws(HistoryError) -> [String] {
    try refuseInsideGroup("redo")
    guard history.canRedo else { throw .nothingToRedo }
    var names: [String] = []
    while names.count < count, let command = history.stepForward() {
      command.apply(to: &document)
      names.append(command.name)
    }
    return names
  }

  /// Throws when a group is open: undo, redo, open and quit are refused then.
  public func refuseInsideGroup(_ operation: String) throws(HistoryError) {
    if let group = history.openGroups.last {
      throw .groupOpen(operation: operation, group: group.displayName, origin: group.origin)
    }
  }

  /// The document now equals what was saved.
  public mutating func markSaved() {
    history.markSaved()
  }

  /// Records, in the innermost open group, a command whose effect the document
  /// already has. Only for replaying a journal written after a save inside a
  /// group: the saved file holds the group's earlier edits, and a `rollback`
  /// must still revert them.
  public mutating func recordApplied(_ command: Command<Root>) throws(HistoryError) {
    guard !history.openGroups.isEmpty else { throw .noOpenGroup(operation: "applied") }
    history.record(command, at: clock())
  }

  /// The document no longer matches any saved file (it was rebuilt from a journal snapshot).
  public mutating func markUnsaved() {
    history.markUnsaved()
  }

  public mutating func setUndoLimit(_ limit: Int) {
    history.setLimit(limit)
  }
}
