/// The undo history as a tree: every step ever made, the state the document is
/// in, the open `begin` groups, the size limit and the saves.
///
/// Pure bookkeeping: it never touches a document. `Editor` applies and reverts
/// the commands it hands out, so the two always move together.
///
/// - **Numbers.** Steps are numbered 1, 2, 3, … in the order they were made,
///   across branches (and, through the log, across sessions); a number never
///   changes. State `n` is the document after step `n`; the start state is the
///   oldest state kept (0 until the limit drops steps).
/// - **Branches.** A step leads from its parent state. A new edit after an
///   undo adds a child to the current state and keeps the undone steps as a
///   branch. Each state remembers the child `redo` goes to: the last one made
///   or walked through.
/// - **Storage.** Flat arrays indexed by state number (the command in a `StepStore`, the
///   parent, the redo child, the count of children), the path from the start to the
///   current state, and run-length coded times: no object per step (a one-field edit is
///   a row of typed arrays, not its `PropertyUpdate`). Every per-step array is a
///   `SegmentedArray`, so a long history grows without copies.
/// - **Limit.** Past `limit` kept steps the oldest goes first. When it leads to
///   the current state, the start moves past it, and the branches that left the
///   old start go with it; when it does not, its whole branch goes.
/// - **By record.** A `RecordStepIndex` lists, for each record number, the steps that
///   touched it, so `steps(touching:)` (what `log` and `blame` read) costs about the
///   record's own steps, not the history's length.
public struct History<Root: Record>: Sendable {
  /// One kept step: its number, the state it leads from, its command and when it was made
  /// (seconds since 1970, to the second).
  public struct Step: Sendable {
    public let number: Int
    public let parent: Int
    public let command: Command<Root>
    public let time: Double
  }

  /// A `begin` not yet closed: its name, where it was opened, what it did so far.
  public struct OpenGroup: Sendable {
    public let name: String?
    /// Where the group was opened (`script.rsh:3`), for the messages that name it.
    public let origin: String?
    public internal(set) var commands = CommandList<Root>()

    /// The name shown for the group: its own, or "unnamed group".
    public var displayName: String { name.map { "'\($0)'" } ?? "unnamed group" }
  }

  /// A save: which state the file held and when.
  public struct Save: Equatable, Sendable {
    public var state: Int
    public var time: Double

    init(state: Int, time: Double) {
      (self.state, self.time) = (state, time)
    }
  }

  /// `commands[n - offset]`: step `n`'s command; `nil` for the start state and dropped steps.
  private var commands = StepStore<Root>(emptySlots: 1)
  /// `parents[n - offset]`: the state step `n` leads from.
  private var parents = SegmentedArray<UInt32>([0])
  /// `redoChildren[n - offset]`: the state `redo` goes to from state `n`; 0 for none.
  private var redoChildren = SegmentedArray<UInt32>([0])
  /// `childCounts[n - offset]`: how many kept steps lead from state `n` (so the limit
  /// knows, without a scan, that the start has no other branch).
  private var childCounts = SegmentedArray<UInt32>([0])
  /// How many leading slots were removed from the arrays (all below the start).
  private var offset = 0
  /// The states from the start to the current one, increasing; `path[pathHead]` is the start.
  private var path = SegmentedArray<UInt32>([0])
  private var pathHead = 0
  /// When steps were made, run-length coded: each entry names the first step (by number)
  /// made in a new second, and that second. Numbers grow with time, so one entry per second
  /// that saw a step dates them all; O(1) amortized per step.
  private var seconds: [(step: Int, second: Double)] = []
  /// The smallest step number that may still be kept (a cursor for the limit).
  private var oldestCandidate = 1
  /// The steps that touched each record (every recorded step is added in `push`; dropped
  /// ones stay until a rebuild, and `steps(touching:)` filters them).
  private(set) var stepIndex: RecordStepIndex

  /// The oldest state kept.
  public private(set) var start = 0
  /// How many steps are kept (not counting the start state).
  public private(set) var keptCount = 0
  /// How many steps the limit has dropped.
  public private(set) var droppedCount = 0
  /// The state the saved file holds; `nil` when no state does (a save inside a group with
  /// edits, or a document rebuilt from elsewhere).
  public private(set) var savedState: Int? = 0
  /// Every save, oldest first (for `earlier 1save`).
  public private(set) var saves: [Save] = []
  /// The most steps kept; 0 keeps all.
  public private(set) var limit: Int
  public internal(set) var openGroups: [OpenGroup] = []

  init(limit: Int = 10_000) {
    self.init(limit: limit, indexStaleAllowance: RecordStepIndex().staleAllowance)
  }

  /// A history whose record index tolerates `indexStaleAllowance` stale steps beyond its
  /// rule (`RecordStepIndex.isMostlyStale`): tests make it small to see rebuilds.
  init(limit: Int, indexStaleAllowance: Int) {
    self.limit = max(0, limit)
    stepIndex = RecordStepIndex(staleAllowance: indexStaleAllowance)
  }

  /// The number the next step gets.
  public var nextNumber: Int { offset + commands.count }
  /// The current state.
  public var current: Int { Int(path[path.count - 1]) }
  /// How many steps `undo` can go back on the current branch.
  public var undoCount: Int { path.count - 1 - pathHead }
  public var canUndo: Bool { current != start }
  public var canRedo: Bool { redoChild(of: current) != nil }

  /// Whether the document equals the saved file: at the saved state, nothing pending in a group.
  var isClean: Bool {
    savedState == current && openGroups.allSatisfy { $0.commands.isEmpty }
  }

  /// Whether step `number` is kept (the start state is not a step).
  func isKept(_ number: Int) -> Bool {
    number > start && number < nextNumber && commands.isKept(number - offset)
  }

  /// Whether `state` is the start state or a kept step's state.
  public func isState(_ state: Int) -> Bool { state == start || isKept(state) }

  /// The kept step `number`.
  public func step(_ number: Int) -> Step? {
    guard isKept(number), let command = commands[number - offset] else { return nil }
    return Step(
      number: number, parent: Int(parents[number - offset]), command: command, time: time(ofStep: number))
  }

  /// The state step `number` leads from.
  public func parent(of number: Int) -> Int { Int(parents[number - offset]) }

  /// The child `redo` goes to from `state`.
  func redoChild(of state: Int) -> Int? {
    let child = Int(redoChildren[state - offset])
    return child == 0 || !isKept(child) ? nil : child
  }

  /// Every kept step, oldest first. O(steps).
  public var keptSteps: [Step] {
    (start + 1..<nextNumber).compactMap { step($0) }
  }

  /// The current branch: the steps from the start to the current state, then the ones
  /// `redo` would apply, in order. O(branch).
  public var branch: [Step] {
    (path[(pathHead + 1)...].map { Int($0) } + stepsAhead(Int.max)).compactMap { step($0) }
  }

  /// The steps from the start to the current state, oldest first: what made the document
  /// as it is (`log`, `blame`).
  var pastSteps: [Step] {
    path[(pathHead + 1)...].compactMap { step(Int($0)) }
  }

  /// The name of the step `undo` would revert.
  var undoName: String? { canUndo ? commands[current - offset]?.name : nil }
  /// The name of the step `redo` would apply again.
  var redoName: String? { redoChild(of: current).flatMap { commands[$0 - offset]?.name } }

  /// When state `state` came to be: its step's time; the start's is its first step's.
  public func time(ofState state: Int) -> Double? {
    if state == start {
      guard let first = (start + 1..<nextNumber).first(where: isKept) else { return nil }
      return time(ofStep: first)
    }
    return isKept(state) ? time(ofStep: state) : nil
  }

  /// The newest kept state (the start when no step is kept).
  var newestState: Int {
    var state = nextNumber - 1
    while state > start && !isKept(state) { state -= 1 }
    return max(state, start)
  }

  /// The newest kept state made at or before `time`; `nil` when every step is later.
  public func newestState(atOrBefore time: Double) -> Int? {
    // Times grow with numbers: find the last step of a second at or before `time`.
    var low = 0
    var high = seconds.count
    while low < high {
      let middle = (low + high) / 2
      if seconds[middle].second <= time { low = middle + 1 } else { high = middle }
    }
    // Steps before `seconds[low].step` are at or before `time`.
    var state = low < seconds.count ? seconds[low].step - 1 : nextNumber - 1
    while state > start && !isKept(state) { state -= 1 }
    guard state > start else {
      guard let first = self.time(ofState: start) else { return start }
      return first <= time ? start : nil
    }
    return state
  }

  private func time(ofStep number: Int) -> Double {
    var low = 0
    var high = seconds.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if seconds[middle].step <= number { low = middle } else { high = middle }
    }
    return seconds.isEmpty ? 0 : seconds[low].second
  }

  // MARK: Changes

  /// Records a command that was just applied: into the innermost open group, or as a new
  /// step from the current state. Returns the new step's number, or `nil` when grouped.
  /// `enforcingLimit: false` keeps every step (reading the log back, whose later entries
  /// may name any of them).
  mutating func record(_ command: Command<Root>, at time: Double, enforcingLimit: Bool = true) -> Int? {
    if openGroups.isEmpty { return push(command, at: time, enforcingLimit: enforcingLimit) }
    openGroups[openGroups.count - 1].commands.append(command)
    return nil
  }

  /// Adds a step from the current state and moves to it.
  private mutating func push(_ command: Command<Root>, at time: Double, enforcingLimit: Bool) -> Int {
    let number = nextNumber
    commands.append(command)
    linkStep(number, at: time)
    stepIndex.add(command, step: number, decodingStored: false)
    if enforcingLimit { enforceLimit() }
    return number
  }

  /// Makes step `number`, whose slot `commands` has just been given, a child of the
  /// current state and the current state.
  private mutating func linkStep(_ number: Int, at time: Double) {
    let parent = current
    let second = time.rounded(.down)
    if seconds.last.map({ $0.second < second }) ?? true { seconds.append((number, second)) }
    parents.append(UInt32(truncatingIfNeeded: parent))
    redoChildren.append(0)
    childCounts.append(0)
    childCounts[parent - offset] += 1
    redoChildren[parent - offset] = UInt32(truncatingIfNeeded: number)
    path.append(UInt32(truncatingIfNeeded: number))
    keptCount += 1
  }

  /// Records a one-field edit of the record numbered `record` that `write` makes straight
  /// into a row of the store it is given (`FieldAccessor.applySet(_:in:numbered:into:)`):
  /// the innermost open group's when it keeps rows, else the steps', as a new step from
  /// the current state. `nil` when `write` made no row (`.notRows`: the group is still
  /// small, or the field keeps none; the caller makes the edit as an object) — then
  /// nothing changed, as when `write` throws. O(1) amortized, as `record`.
  mutating func recordRow(
    of record: RecordNumber, at time: Double,
    _ write: (inout StepStore<Root>) throws(FieldError) -> StepRowWrite<Root>
  ) throws(FieldError) -> EditOutcome<Root>? {
    if let group = openGroups.indices.last {
      switch try openGroups[group].commands.appendRow(write) {
      case .notRows: return nil
      case .unchanged: return .unchanged
      case .appended(let change): return .grouped(change)
      }
    }
    switch try write(&commands) {
    case .notRows: return nil
    case .unchanged: return .unchanged
    case .appended(let change):
      let number = nextNumber - 1
      linkStep(number, at: time)
      stepIndex.addEdit(of: record, step: number)
      enforceLimit()
      return .recorded(change, step: number)
    }
  }

  // MARK: Steps by record

  /// The steps that touched the record numbered `number` (`Command.edits(of:)` is not
  /// empty), newest first, among the steps from the start to the current state (those
  /// `pastSteps` lists). Mutating because the steps read back from the log are indexed
  /// on first use: the first call after opening a file decodes and indexes every kept
  /// step in one pass (O(kept steps)). Later calls cost O(the steps since the start that
  /// touched the record, on any branch, dropped ones included until a rebuild + the wide
  /// steps since the start (bulk edits, large groups), each checked with `edits(of:)`),
  /// each looked for on the path (`isOnPath`: O(1) on a path that skips no number): not
  /// the steps that touched other records, however many.
  mutating func steps(touching number: RecordNumber) -> [Int] {
    indexPendingSteps()
    return stepIndex.steps(
      touching: number, above: start, isLive: { isKept($0) && isOnPath($0) },
      wideTouches: { command($0).map { !$0.edits(of: number).isEmpty } ?? false })
  }

  /// Indexes the steps read back from the log, when any of them is still kept: a rebuild
  /// that decodes them (so that the index stays in step order). O(kept steps) once.
  mutating func indexPendingSteps() {
    guard stepIndex.hasPending else { return }
    if stepIndex.pending.contains(where: { isKept(Int($0)) }) {
      rebuildStepIndex(decodingStored: true)
    } else {
      stepIndex.dropPending()
    }
  }

  /// Makes the index again from the kept steps alone, in increasing number (`decodingStored`
  /// as `RecordStepIndex.add` says). O(numbers from the start to the newest step).
  private mutating func rebuildStepIndex(decodingStored: Bool) {
    var index = RecordStepIndex(staleAllowance: stepIndex.staleAllowance)
    if start + 1 < nextNumber {
      for number in start + 1..<nextNumber {
        if let command = commands[number - offset] {
          index.add(command, step: number, decodingStored: decodingStored)
        }
      }
    }
    stepIndex = index
  }

  /// The states `undo count` reverts, newest first: up to `count` steps back along the path.
  func stepsBack(_ count: Int) -> [Int] {
    let first = max(pathHead + 1, path.count - count)
    return path[first...].reversed().map { Int($0) }
  }

  /// The states `redo count` applies, oldest first: up to `count` steps ahead on the branch.
  public func stepsAhead(_ count: Int) -> [Int] {
    var steps: [Int] = []
    var state = current
    while steps.count < count, let child = redoChild(of: state) {
      steps.append(child)
      state = child
    }
    return steps
  }

  /// The way from the current state to `target`: the steps to revert (newest first), then
  /// the steps to apply (oldest first), through their common ancestor. `nil` when `target`
  /// is no state. O(the way + log of the path).
  public func route(to target: Int) -> (revert: [Int], apply: [Int])? {
    guard isState(target) else { return nil }
    var apply: [Int] = []
    var state = target
    while !isOnPath(state) {
      apply.append(state)
      state = parent(of: state)
    }
    let ancestor = state
    var revert: [Int] = []
    var index = path.count - 1
    while Int(path[index]) != ancestor {
      revert.append(Int(path[index]))
      index -= 1
    }
    return (revert, apply.reversed())
  }

  /// How many steps `route(to:)` would revert and apply, without listing them (a count of
  /// unsaved changes must not allocate a list of a million numbers). O(the steps to apply
  /// + log of the path).
  public func routeLength(to target: Int) -> (revert: Int, apply: Int)? {
    guard isState(target) else { return nil }
    var apply = 0
    var state = target
    while true {
      if let place = place(onPath: state) { return (path.count - 1 - place, apply) }
      apply += 1
      state = parent(of: state)
    }
  }

  /// Whether step `number` is applied in the current state: the state it made is on the
  /// path from the start to the current one. O(log steps) at most.
  public func isApplied(_ number: Int) -> Bool { number != start && isOnPath(number) }

  /// Whether `state` is on the path from the start to the current state: a binary search,
  /// since the path's numbers increase, within the only places `state` can be. Numbers on
  /// the path differ by at least one a place, so `state` is at most `state - start` places
  /// after the start and at least `current - state` places before the end: O(1) when the
  /// path skips no number (no undo, no branch), O(log of the numbers it skips) at most.
  private func isOnPath(_ state: Int) -> Bool { place(onPath: state) != nil }

  /// Where `state` is on the path (`path[place] == state`), as `isOnPath` finds it; `nil`
  /// when it is not on it.
  private func place(onPath state: Int) -> Int? {
    let last = path.count - 1
    guard state >= Int(path[pathHead]), state <= Int(path[last]) else { return nil }
    var low = max(pathHead, last - (Int(path[last]) - state))
    var high = min(last, pathHead + (state - Int(path[pathHead]))) + 1
    while low < high {
      let middle = (low + high) / 2
      let value = Int(path[middle])
      if value == state { return middle }
      if value < state { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  /// Applies (`forward`) or reverts kept step `number` in `document` when its command is
  /// a row of the step store, without making the command (`StepStore.writeRow`); false,
  /// and nothing done, otherwise.
  func writeRow(_ number: Int, forward: Bool, in document: inout Document<Root>) -> Bool {
    isKept(number) && commands.writeRow(number - offset, forward: forward, in: &document)
  }

  /// The name of kept step `number` when its command is a row, made without the command.
  func rowName(_ number: Int) -> String? {
    isKept(number) ? commands.rowName(number - offset) : nil
  }

  /// The command of kept step `number`.
  func command(_ number: Int) -> Command<Root>? { isKept(number) ? commands[number - offset] : nil }

  /// Follows a route the editor applied: `revert` steps back, then `apply` steps forward,
  /// each state passed remembering the way (so `undo` then `redo` comes back here).
  mutating func follow(revert: [Int], apply: [Int]) {
    for number in revert {
      path.removeLast()
      redoChildren[current - offset] = UInt32(truncatingIfNeeded: number)
    }
    for number in apply {
      redoChildren[current - offset] = UInt32(truncatingIfNeeded: number)
      path.append(UInt32(truncatingIfNeeded: number))
    }
  }

  /// Moves to `state` as a session's move did (the log's `goto`): each state passed
  /// remembers the way, as `follow` says.
  mutating func move(to state: Int) {
    guard let (revert, apply) = route(to: state) else { return }
    follow(revert: revert, apply: apply)
  }

  /// Makes `state` current without touching where `redo` goes from any state: the
  /// document is that state already (the saved file, when the log is read back). Each
  /// state before the one the log left off at still points toward it, so its unsaved
  /// steps come back with `redo` when they lie ahead of `state`. O(depth of `state`).
  mutating func place(at state: Int) {
    guard isState(state) else { return }
    var states: [UInt32] = []
    var walk = state
    while walk != start {
      states.append(UInt32(truncatingIfNeeded: walk))
      walk = parent(of: walk)
    }
    states.append(UInt32(truncatingIfNeeded: start))
    path.removeLast(path.count - pathHead)
    for state in states.reversed() { path.append(state) }
  }

  /// Starts an empty history at state `state` (a log compacted past its first steps).
  mutating func restart(at state: Int) {
    guard keptCount == 0, state > 0 else { return }
    commands = StepStore(emptySlots: 1)
    (parents, redoChildren, childCounts) = (SegmentedArray([0]), SegmentedArray([0]), SegmentedArray([0]))
    offset = state
    start = state
    path = SegmentedArray([UInt32(truncatingIfNeeded: state)])
    pathHead = 0
    oldestCandidate = state + 1
    savedState = state
    // (No step was kept, so the index describes none worth keeping.)
    stepIndex = RecordStepIndex(staleAllowance: stepIndex.staleAllowance)
  }

  /// Notes a save of the current state at `time`.
  mutating func markSaved(at time: Double) {
    // A save inside a group with edits writes a state no number names (the
    // group is not a step yet), so no state is clean until the next save.
    if openGroups.allSatisfy({ $0.commands.isEmpty }) {
      savedState = current
      saves.append(Save(state: current, time: time))
    } else {
      savedState = nil
    }
  }

  /// Notes a save of `state` (read back from the log).
  mutating func noteSave(of state: Int, at time: Double) {
    savedState = state
    saves.append(Save(state: state, time: time))
  }

  mutating func setSavedState(_ state: Int?) {
    savedState = state
  }

  mutating func markUnsaved() {
    savedState = nil
  }

  /// Gives the next step the number `number` (the log skips the numbers of dropped steps).
  mutating func skip(to number: Int) {
    while nextNumber < number {
      commands.append(nil)
      parents.append(0)
      redoChildren.append(0)
      childCounts.append(0)
    }
  }

  /// Changes the limit, dropping steps as `enforceLimit` says.
  mutating func setLimit(_ newLimit: Int) {
    limit = max(0, newLimit)
    enforceLimit()
  }

  /// Drops the oldest steps while more than `limit` are kept. The oldest step goes first:
  /// when it leads to the current state, the start moves past it (with the branches that
  /// left the old start); when it lies ahead on the current branch (`redo` would reach
  /// it), that branch loses its newest step instead; otherwise its whole side branch goes.
  /// O(1) amortized per step on one branch; a dropped side branch costs a scan of the newer
  /// numbers. The branch ahead is walked once per call, not once per step dropped from it:
  /// a log of a million unsaved steps read back under a limit of 10,000 drops its steps
  /// ahead in one pass (it took minutes when each drop walked the branch again).
  private mutating func enforceLimit() {
    guard limit > 0 else { return }
    // The branch ahead of the current state, walked when first needed; dropping its
    // newest step shortens it by that step, and any other drop makes it be walked again.
    var ahead: [Int]?
    var aheadSet: Set<Int> = []
    while keptCount > limit {
      while !isKept(oldestCandidate) { oldestCandidate += 1 }
      let oldest = oldestCandidate
      if pathHead + 1 < path.count, Int(path[pathHead + 1]) == oldest {
        // Other branches from the start go first: the start moves past them.
        if childCounts[start - offset] > 1 {
          dropSubtrees(from: start, except: oldest)
          ahead = nil
        }
        commands.drop(oldest - offset)
        keptCount -= 1
        droppedCount += 1
        pathHead += 1
        start = oldest
        if let saved = savedState, saved < start { savedState = nil }
        continue
      }
      if ahead == nil {
        let walked = stepsAhead(Int.max)
        (ahead, aheadSet) = (walked, Set(walked))
      }
      if let newest = ahead?.last, aheadSet.contains(oldest) {
        dropSubtrees(from: start, except: nil, only: newest)
        ahead?.removeLast()
        aheadSet.remove(newest)
      } else {
        dropSubtrees(from: start, except: nil, only: oldest)
        ahead = nil
      }
    }
    compactStorage()
    // Dropped steps leave stale entries in the index; past twice the kept ones, rebuild
    // (O(1) amortized; steps read back from the log stay pending, undecoded).
    if stepIndex.isMostlyStale(kept: keptCount) { rebuildStepIndex(decodingStored: false) }
  }

  /// Drops the steps below `state` (all its children's subtrees but `except`; or only
  /// the subtree of `only`).
  private mutating func dropSubtrees(from state: Int, except: Int?, only: Int? = nil) {
    var dropped: Set<Int> = []
    var first = start + 1
    if let only {
      dropped.insert(only)
      // Below a step are only newer numbers; below a leaf, none.
      first = childCounts[only - offset] == 0 ? nextNumber : only + 1
    }
    for number in first..<nextNumber where isKept(number) {
      let parent = parent(of: number)
      if (only == nil && parent == state && number != except) || dropped.contains(parent) {
        dropped.insert(number)
      }
    }
    for number in dropped {
      commands.drop(number - offset)
      childCounts[parent(of: number) - offset] -= 1
      if Int(redoChildren[parent(of: number) - offset]) == number {
        redoChildren[parent(of: number) - offset] = 0
      }
    }
    keptCount -= dropped.count
    droppedCount += dropped.count
    // A dropped saved state can no longer be reached.
    if let saved = savedState, saved != start, !isKept(saved) { savedState = nil }
  }

  /// Removes dropped slots below the start from the arrays, in batches: O(1) amortized.
  private mutating func compactStorage() {
    let removable = start - offset
    guard removable > 4096, removable * 2 > commands.count else { return }
    commands.removeFirst(removable)
    parents.removeFirst(removable)
    redoChildren.removeFirst(removable)
    childCounts.removeFirst(removable)
    offset = start
    path.removeFirst(pathHead)
    pathHead = 0
    // Keep the last time at or before the start's first step: it dates that step.
    if let kept = seconds.lastIndex(where: { $0.step <= start + 1 }), kept > 0 {
      seconds.removeFirst(kept)
    }
    saves.removeAll { $0.state < start }
  }
}
