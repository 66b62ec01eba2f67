/// The undo history: the steps, the position between undone and redoable
/// ones, the open `begin` groups, the size limit and the save point.
///
/// Pure bookkeeping: it never touches a document. `Editor` applies and reverts
/// the commands it hands out, so the two always move together.
///
/// Positions are absolute: state `k` is the document after the first `k` steps
/// ever recorded, so a save point stays meaningful when old steps are dropped.
public struct History<Root: Record>: Sendable {
  /// One undo step: a command and when it was recorded (seconds since 1970, to the
  /// second: what `history` shows).
  public struct Step: Sendable {
    public let command: Command<Root>
    public let time: Double
  }

  /// A `begin` not yet closed: its name, where it was opened, what it did so far.
  public struct OpenGroup: Sendable {
    public let name: String?
    /// Where the group was opened (`script.rsh:3`), for the messages that name it.
    public let origin: String?
    public internal(set) var commands: [Command<Root>] = []

    /// The name shown for the group: its own, or "unnamed group".
    public var displayName: String { name.map { "'\($0)'" } ?? "unnamed group" }
  }

  /// The steps' commands. Their times are kept apart, in `seconds`.
  private var steps: [Command<Root>] = []
  /// When the steps were recorded, run-length coded: each entry names the first step
  /// (by its absolute index, 0-based) recorded in a new second, and that second. A script
  /// records many thousands of steps a second, so this costs next to nothing beside the
  /// commands: O(1) amortized per step, one entry per second that saw a step.
  private var seconds: [(step: Int, second: Double)] = []
  /// `steps[..<first]` were dropped by the limit and are removed in batches.
  private var first = 0
  /// `steps[first..<cursor]` can be undone, `steps[cursor...]` redone.
  private var cursor = 0
  /// How many steps the limit has dropped since the history began.
  public private(set) var droppedCount = 0
  /// The absolute position of the saved state; `nil` once it cannot be reached.
  public private(set) var savePosition: Int? = 0
  /// The most steps kept; 0 keeps all.
  public private(set) var limit: Int
  public internal(set) var openGroups: [OpenGroup] = []

  public init(limit: Int = 10_000) {
    self.limit = max(0, limit)
  }

  public var undoCount: Int { cursor - first }
  public var redoCount: Int { steps.count - cursor }
  public var canUndo: Bool { undoCount > 0 }
  public var canRedo: Bool { redoCount > 0 }
  /// The absolute position of the current state.
  public var position: Int { droppedCount + undoCount }

  /// The steps still kept, oldest first, with their absolute numbers (1-based:
  /// step `n` leads from state `n - 1` to state `n`).
  public var keptSteps: [(number: Int, step: Step)] {
    steps[first...].enumerated().map { offset, command in
      let index = droppedCount + offset
      return (index + 1, Step(command: command, time: second(ofStep: index)))
    }
  }

  /// The name of the step `undo` would revert.
  public var undoName: String? { canUndo ? steps[cursor - 1].name : nil }
  /// The name of the step `redo` would apply again.
  public var redoName: String? { canRedo ? steps[cursor].name : nil }

  /// Whether the document equals the saved file: at the save point, nothing pending in a group.
  public var isClean: Bool {
    savePosition == position && openGroups.allSatisfy { $0.commands.isEmpty }
  }

  /// Records a command that was just applied: into the innermost open group, or as a new step
  /// (which discards the redoable steps).
  mutating func record(_ command: Command<Root>, at time: Double) {
    if openGroups.isEmpty {
      push(command, at: time)
    } else {
      openGroups[openGroups.count - 1].commands.append(command)
    }
  }

  private mutating func push(_ command: Command<Root>, at time: Double) {
    if canRedo {
      steps.removeSubrange(cursor...)
      forgetSeconds(fromStep: absoluteIndex(cursor))
      if let save = savePosition, save > position { savePosition = nil }
    }
    let second = time.rounded(.down)
    if seconds.last?.second != second { seconds.append((absoluteIndex(steps.count), second)) }
    steps.append(command)
    cursor += 1
    enforceLimit()
  }

  /// The absolute index (0-based, counting dropped steps) of `steps[index]`.
  private func absoluteIndex(_ index: Int) -> Int { droppedCount - first + index }

  /// The second step `index` (absolute) was recorded in: the last entry at or before it.
  private func second(ofStep index: Int) -> Double {
    var low = 0
    var high = seconds.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if seconds[middle].step <= index { low = middle } else { high = middle }
    }
    return seconds.isEmpty ? 0 : seconds[low].second
  }

  /// Forgets the times of steps from `index` (absolute) on, which were just removed.
  private mutating func forgetSeconds(fromStep index: Int) {
    while let last = seconds.last, last.step >= index { seconds.removeLast() }
  }

  /// Moves back one step and returns the command to revert.
  mutating func stepBack() -> Command<Root>? {
    guard canUndo else { return nil }
    cursor -= 1
    return steps[cursor]
  }

  /// Moves forward one step and returns the command to apply again.
  mutating func stepForward() -> Command<Root>? {
    guard canRedo else { return nil }
    cursor += 1
    return steps[cursor - 1]
  }

  mutating func markSaved() {
    // A save inside a group with edits writes a state no position names (the
    // group is not a step yet), so no position is clean until the next save.
    savePosition = openGroups.allSatisfy { $0.commands.isEmpty } ? position : nil
  }

  mutating func markUnsaved() {
    savePosition = nil
  }

  /// Changes the limit; the oldest undoable steps go first, then the newest redoable ones.
  mutating func setLimit(_ newLimit: Int) {
    limit = max(0, newLimit)
    enforceLimit()
  }

  private mutating func enforceLimit() {
    guard limit > 0 else { return }
    while steps.count - first > limit {
      if canUndo {
        first += 1
        droppedCount += 1
      } else {
        steps.removeLast()
        forgetSeconds(fromStep: absoluteIndex(steps.count))
      }
    }
    // Dropped steps leave the array in batches, so a full history costs O(1) per step.
    if first > 4096, first * 2 > steps.count {
      steps.removeFirst(first)
      cursor -= first
      first = 0
      // Keep the last time at or before the first kept step: it dates that step.
      if let kept = seconds.lastIndex(where: { $0.step <= droppedCount }), kept > 0 {
        seconds.removeFirst(kept)
      }
    }
  }
}
