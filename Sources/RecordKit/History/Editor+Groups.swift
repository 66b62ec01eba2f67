extension Editor {
  /// The open `begin` groups, outermost first.
  public var openGroups: [History<Root>.OpenGroup] { history.openGroups }

  /// How many commands the open groups hold (what a save inside them writes beyond the
  /// current state).
  public var pendingChangeCount: Int { history.openGroups.reduce(0) { $0 + $1.commands.count } }

  /// Opens a group; groups nest. `origin` says where (`script.rsh:3`) for later messages.
  public mutating func begin(_ name: String?, origin: String? = nil) {
    history.openGroups.append(History.OpenGroup(name: name, origin: origin))
  }

  /// Closes the innermost group. Closing the outermost one records everything
  /// since its `begin` as one step; an empty group records nothing.
  @discardableResult
  public mutating func end() throws(HistoryError) -> GroupClosing<Root> {
    guard let group = history.openGroups.popLast() else { throw .noOpenGroup(operation: "end") }
    guard !group.commands.isEmpty else { return .empty }
    let command = Command<Root>.group(name: group.name, group.commands)
    guard let step = history.record(command, at: clock()) else { return .joinedOuter }
    return .recorded(command, step: step)
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

  /// Undoes up to `count` steps of the current branch.
  public mutating func undo(_ count: Int = 1) throws(HistoryError) -> HistoryMove {
    try refuseInsideGroup("undo")
    guard history.canUndo else { throw .nothingToUndo }
    return try walk(revert: history.stepsBack(count), apply: [], naming: true)
  }

  /// Redoes up to `count` steps of the current branch.
  public mutating func redo(_ count: Int = 1) throws(HistoryError) -> HistoryMove {
    try refuseInsideGroup("redo")
    guard history.canRedo else { throw .nothingToRedo }
    return try walk(revert: [], apply: history.stepsAhead(count), naming: true)
  }

  /// Goes to the state after step `state` (0: the start state), wherever it is in the tree:
  /// back to the common ancestor, then down the other branch. No snapshots: O(the way).
  public mutating func goto(_ state: Int) throws(HistoryError) -> HistoryMove {
    try refuseInsideGroup("goto")
    let target = state == 0 ? history.start : state
    guard target >= 0, target < history.nextNumber else {
      throw .noSuchStep(state, newest: history.nextNumber - 1)
    }
    guard let (revert, apply) = history.route(to: target) else { throw .stepDropped(state) }
    return try walk(revert: revert, apply: apply, naming: false)
  }

  /// The one way the document moves through the tree: reverts the steps `revert` (newest
  /// first), then applies `apply` (oldest first), each checked first when it was read back
  /// from the log (`checkedBelow`); the history follows. A step that does not fit stops the
  /// move where it is, the history following as far, and throws. `naming`: the names of
  /// the steps are kept (`undo`/`redo` print them; a `goto` of a million steps only counts).
  private mutating func walk(revert: [Int], apply: [Int], naming: Bool) throws(HistoryError) -> HistoryMove {
    var move = HistoryMove(from: history.current, to: history.current, reverted: [], applied: [])
    var done = (revert: [Int](), apply: [Int]())
    do throws(HistoryError) {
      for (number, back) in revert.map({ ($0, true) }) + apply.map({ ($0, false) }) {
        let name: String?
        // A step made here that is a row of the history's store is written without its
        // command being made again (one object per step of `undo 100000`).
        if number >= checkedBelow, history.writeRow(number, forward: !back, in: &document) {
          name = naming ? history.rowName(number) : nil
        } else {
          guard let command = history.command(number) else { continue }
          try Self.take(command, number: number, back: back, checkedBelow: checkedBelow, in: &document)
          name = naming ? command.name : nil
        }
        if back {
          done.revert.append(number)
          if let name { move.reverted.append(name) }
        } else {
          done.apply.append(number)
          if let name { move.applied.append(name) }
        }
      }
    } catch {
      history.follow(revert: done.revert, apply: done.apply)
      throw error
    }
    history.follow(revert: done.revert, apply: done.apply)
    (move.to, move.revertedCount, move.appliedCount) = (history.current, done.revert.count, done.apply.count)
    return move
  }

  /// Reverts (`back`) or applies step `number`'s command on `document`, checked first when
  /// the step was read back from a log (`checkedBelow`); a step that does not fit throws
  /// and changes nothing.
  static func take(
    _ command: Command<Root>, number: Int, back: Bool, checkedBelow: Int, in document: inout Document<Root>
  ) throws(HistoryError) {
    if number < checkedBelow,
      !(back ? command.isRevertible(in: document) : command.isApplicable(to: document))
    {
      throw .stepDoesNotFit(number)
    }
    if back { command.revert(in: &document) } else { command.apply(to: &document) }
  }

  /// `earlier 10m` / `earlier 1save`: the state as it was that long (or that many saves)
  /// before the current one, like vim's `:earlier`. Past the oldest state it stops there.
  public mutating func earlier(_ span: HistorySpan) throws(HistoryError) -> HistoryMove {
    try refuseInsideGroup("earlier")
    var stopped = false
    let target: Int
    switch span {
    case .seconds(let seconds):
      let now = history.time(ofState: history.current) ?? clock()
      if let state = history.newestState(atOrBefore: now - seconds) {
        target = state
      } else {
        (target, stopped) = (history.start, true)
      }
    case .saves(let count):
      // With unsaved changes the first save back is the last one; from a saved state, the one before.
      let saves = history.saves.filter { history.isState($0.state) }
      let atSave = isDirty ? saves.count : (saves.lastIndex { $0.state == history.current } ?? saves.count)
      let index = atSave - count
      if index >= 0 {
        target = saves[index].state
      } else {
        (target, stopped) = (history.start, true)
      }
    }
    var move = try goto(target == history.start ? 0 : target)
    if stopped { move.stopped = .oldest }
    return move
  }

  /// `later 10m` / `later 1save`: the opposite of `earlier`. Past the newest state it stops there.
  public mutating func later(_ span: HistorySpan) throws(HistoryError) -> HistoryMove {
    try refuseInsideGroup("later")
    let newest = history.newestState
    var stopped = false
    let target: Int
    switch span {
    case .seconds(let seconds):
      let time = (history.time(ofState: history.current) ?? clock()) + seconds
      let newestTime = history.time(ofState: newest) ?? time
      if time >= newestTime {
        (target, stopped) = (newest, time > newestTime || history.current == newest)
      } else {
        target = max(history.current, history.newestState(atOrBefore: time) ?? history.current)
      }
    case .saves(let count):
      let saves = history.saves.filter { history.isState($0.state) }
      let now = history.time(ofState: history.current) ?? clock()
      let next: Int
      if !isDirty, let index = saves.lastIndex(where: { $0.state == history.current }) {
        next = index + count
      } else {
        next = (saves.firstIndex { $0.time > now || $0.state > history.current } ?? saves.count) + count - 1
      }
      if next < saves.count {
        target = saves[next].state
      } else {
        (target, stopped) = (newest, true)
      }
    }
    var move = try goto(target == history.start ? 0 : target)
    if stopped { move.stopped = .newest }
    return move
  }

  /// Throws when a group is open: undo, redo, open and quit are refused then.
  public func refuseInsideGroup(_ operation: String) throws(HistoryError) {
    if let group = history.openGroups.last {
      throw .groupOpen(operation: operation, group: group.displayName, origin: group.origin)
    }
  }

  /// The document now equals what was saved.
  public mutating func markSaved() {
    history.markSaved(at: clock())
  }

  /// The document no longer matches any saved file.
  public mutating func markUnsaved() {
    history.markUnsaved()
  }

  public mutating func setUndoLimit(_ limit: Int) {
    history.setLimit(limit)
  }
}

/// Rebuilding a history read back from the log: steps recorded without the document
/// moving (it is the saved file), then placed at the saved state. Public, not `package`,
/// only so that the shell's log reader runs specialized for its kind (cross-module
/// optimization specializes public generic code); nothing outside recsh uses them.
extension Editor {
  /// Records `command` as a step from the current state, numbered `number` (at least the
  /// next number), made at `time`, without touching the document. The limit is not applied
  /// (the log's later entries may name any step); `setUndoLimit` applies it afterwards.
  public mutating func restoreStep(_ command: Command<Root>, number: Int, at time: Double) {
    history.skip(to: number)
    _ = history.record(command, at: time, enforcingLimit: false)
  }

  /// Starts the history at state `state`, with no steps (the log's start).
  public mutating func restoreStart(_ state: Int) {
    history.restart(at: state)
  }

  /// Moves to `state` as the session whose log is read did (the document does not move).
  public mutating func restorePosition(_ state: Int) {
    history.move(to: state)
  }

  /// Makes `state` current without the document moving (it is that state already) and
  /// without changing where `redo` goes (see `History.place(at:)`).
  public mutating func place(at state: Int) {
    history.place(at: state)
  }

  /// The document is state `state`; it is brought to the current state along the tree
  /// (up to the common ancestor, then down), each step checked against it first. For a
  /// dead session's steps, recovered: the history stays exactly as that session left it.
  package mutating func bringDocument(from state: Int) throws(HistoryError) {
    guard let (revert, apply) = history.route(to: state) else { throw .stepDropped(state) }
    // `route` leads from the current state to `state`; the document goes the other way.
    var scratch = document
    for number in apply.reversed() {
      guard let command = history.command(number), command.isRevertible(in: scratch) else {
        throw .stepDoesNotFit(number)
      }
      command.revert(in: &scratch)
    }
    for number in revert.reversed() {
      guard let command = history.command(number), command.isApplicable(to: scratch) else {
        throw .stepDoesNotFit(number)
      }
      command.apply(to: &scratch)
    }
    document = scratch
  }

  /// Replaces the document without touching the history (the log's tree is placed on the
  /// file as read).
  package mutating func replaceDocument(_ document: Document<Root>) {
    self.document = document
  }

  /// The state the saved file holds (`nil`: none; it was saved inside a group).
  public mutating func restoreSavedState(_ state: Int?) {
    history.setSavedState(state)
  }

  /// Notes that the saved file held `state` at `time`.
  public mutating func restoreSave(of state: Int, at time: Double) {
    history.noteSave(of: state, at: time)
  }
}

extension Editor {
  /// The document as it is at `state` (a state of the tree), made on a copy: the open
  /// groups' changes taken back, then the way from the current state walked
  /// (`Editor.compare`'s way), each step read back from a log checked first. The editor is
  /// not changed. O(records) for the copy, and the steps on the way.
  func document(atState state: Int) throws(HistoryError) -> Document<Root> {
    var copy = document
    for move in try way(to: .state(state)) { try take(move, in: &copy) }
    return copy
  }
}
