@testable import RecordKit

/// One operation of a random editing session, replayable from data.
enum ModelOp: Equatable, CustomStringConvertible {
  case new(title: String?)
  case delete(Int)
  case set(Int, [Pair])
  case createCustom(Int, String, ValueToken)
  case unset(Int, String)
  case tag(Int, String, add: Bool)
  case begin(String?)
  case end
  case rollback
  case undo(Int)
  case redo(Int)
  case limit(Int)
  case save
  case goto(Int)
  case earlier(HistorySpan)
  case later(HistorySpan)
  /// The clock moves on this many seconds.
  case tick(Int)

  struct Pair: Equatable {
    var field: String
    var value: ValueToken
  }

  var description: String {
    switch self {
    case .new(let title): ".new(title: \(title.map { "\"\($0)\"" } ?? "nil"))"
    case .delete(let position): ".delete(\(position))"
    case .set(let position, let pairs):
      ".set(\(position), [\(pairs.map { ".init(field: \"\($0.field)\", value: \(literal($0.value)))" }.joined(separator: ", "))])"
    case .createCustom(let position, let name, let value):
      ".createCustom(\(position), \"\(name)\", \(literal(value)))"
    case .unset(let position, let name): ".unset(\(position), \"\(name)\")"
    case .tag(let position, let tag, let add): ".tag(\(position), \"\(tag)\", add: \(add))"
    case .begin(let name): ".begin(\(name.map { "\"\($0)\"" } ?? "nil"))"
    case .end: ".end"
    case .rollback: ".rollback"
    case .undo(let count): ".undo(\(count))"
    case .redo(let count): ".redo(\(count))"
    case .limit(let limit): ".limit(\(limit))"
    case .save: ".save"
    case .goto(let state): ".goto(\(state))"
    case .earlier(let span): ".earlier(\(Self.literal(span)))"
    case .later(let span): ".later(\(Self.literal(span)))"
    case .tick(let seconds): ".tick(\(seconds))"
    }
  }

  private static func literal(_ span: HistorySpan) -> String {
    switch span {
    case .seconds(let seconds): ".seconds(\(Int(seconds)))"
    case .saves(let count): ".saves(\(count))"
    }
  }

  private func literal(_ token: ValueToken) -> String {
    switch token {
    case .word(let text): ".word(\"\(text)\")"
    case .quoted(let text): ".quoted(\"\(text)\")"
    case .list(let items): ".list([\(items.map(literal).joined(separator: ", "))])"
    }
  }
}

/// The trivial model of the undo tree: a whole snapshot of the record list per state.
///
/// It knows nothing of commands: an edit adds a child state to the current one, undo
/// moves to the parent, redo to the child last made or passed through, `goto` walks the
/// tree, a group is "the snapshot at begin". Times come from a clock the ops move on.
struct HistoryModel {
  struct Node {
    var parent: Int
    var state: [TaskRecord]
    var time: Double
    var alive = true
  }

  /// Every state ever made, by number; node 0 is the first start.
  var nodes: [Node] = [Node(parent: 0, state: [], time: 0)]
  var current = 0
  var start = 0
  var redo: [Int: Int] = [:]
  var savedState: Int? = 0
  var saves: [(state: Int, time: Double)] = []
  var limit: Int
  var now = 1_000.0
  /// Per open group: the state at its `begin` and how many changes it made
  /// (edits that cancel out are still changes); `working` is the live state.
  var groupStarts: [(start: [TaskRecord], changes: Int)] = []
  var working: [TaskRecord] = []
  var nextID = 1

  init(limit: Int) {
    self.limit = limit
  }

  var currentRecords: [TaskRecord] { groupStarts.isEmpty ? nodes[current].state : working }
  var isDirty: Bool {
    if groupStarts.contains(where: { $0.changes > 0 }) { return true }
    return savedState != current
  }

  /// The kept step numbers, oldest first.
  var kept: [Int] { nodes.indices.filter { $0 > start && nodes[$0].alive } }
  /// The states from the start to the current one.
  var path: [Int] {
    var states = [current]
    while states[0] != start { states.insert(nodes[states[0]].parent, at: 0) }
    return states
  }
  /// The steps `redo` would apply, in order.
  var ahead: [Int] {
    var steps: [Int] = []
    var state = current
    while let child = redo[state], nodes[child].alive {
      steps.append(child)
      state = child
    }
    return steps
  }

  func isState(_ state: Int) -> Bool {
    state == start || (state > start && state < nodes.count && nodes[state].alive)
  }

  /// When a state came to be: its step's; the start's is its first kept step's.
  func time(of state: Int) -> Double? {
    if state == start { return kept.first.map { nodes[$0].time } }
    return nodes[state].time
  }

  /// Applies `op`; returns whether it succeeded (a failure must change nothing).
  mutating func apply(_ op: ModelOp) -> Bool {
    switch op {
    case .new(let title):
      var record = TaskRecord(id: "r\(nextID)")
      nextID += 1
      record.title = title
      var next = currentRecords
      next.append(record)
      commit(next)
      return true
    case .delete(let position):
      guard currentRecords.indices.contains(position) else { return false }
      var next = currentRecords
      next.remove(at: position)
      commit(next)
      return true
    case .set(let position, let pairs):
      guard currentRecords.indices.contains(position) else { return false }
      var record = currentRecords[position]
      var seen: Set<String> = []
      for pair in pairs {
        guard seen.insert(pair.field).inserted, Self.assign(pair.value, to: pair.field, in: &record)
        else { return false }
      }
      return change(position, to: record)
    case .createCustom(let position, let name, let value):
      guard currentRecords.indices.contains(position), currentRecords[position].custom[name] == nil,
        TaskRecord.fields.field(named: name) == nil
      else { return false }
      var record = currentRecords[position]
      record.custom[name] = CustomFieldCodec.infer(value)
      return change(position, to: record)
    case .unset(let position, let name):
      guard currentRecords.indices.contains(position) else { return false }
      var record = currentRecords[position]
      switch name {
      case "due": record.due = nil
      case _ where record.custom[name] != nil: record.custom[name] = nil
      default: return false
      }
      return change(position, to: record)
    case .tag(let position, let tag, let add):
      guard currentRecords.indices.contains(position) else { return false }
      var record = currentRecords[position]
      var tags = record.tags ?? []
      if add {
        if !tags.contains(tag) { tags.append(tag) }
      } else {
        guard let index = tags.firstIndex(of: tag) else { return false }
        tags.remove(at: index)
      }
      record.tags = tags
      return change(position, to: record)
    case .begin:
      if groupStarts.isEmpty { working = nodes[current].state }
      groupStarts.append((working, 0))
      return true
    case .end:
      guard let group = groupStarts.popLast() else { return false }
      if groupStarts.isEmpty {
        if group.changes > 0 { push(working) }
      } else {
        groupStarts[groupStarts.count - 1].changes += group.changes
      }
      return true
    case .rollback:
      guard let group = groupStarts.popLast() else { return false }
      working = group.start
      return true
    case .undo(let count):
      guard groupStarts.isEmpty, current != start else { return false }
      for _ in 0..<count where current != start {
        redo[nodes[current].parent] = current
        current = nodes[current].parent
      }
      return true
    case .redo(let count):
      guard groupStarts.isEmpty, !ahead.isEmpty else { return false }
      current = ahead[min(count, ahead.count) - 1]
      return true
    case .limit(let newLimit):
      limit = newLimit
      enforceLimit()
      return true
    case .save:
      if groupStarts.allSatisfy({ $0.changes == 0 }) {
        savedState = current
        saves.append((current, now.rounded(.down)))
      } else {
        savedState = nil
      }
      return true
    case .goto(let number):
      let target = number == 0 ? start : number
      guard groupStarts.isEmpty, isState(target) else { return false }
      go(to: target)
      return true
    case .earlier(let span):
      guard groupStarts.isEmpty else { return false }
      switch span {
      case .seconds(let seconds):
        let target = (time(of: current) ?? now.rounded(.down)) - seconds
        go(to: newest(atOrBefore: target) ?? start)
      case .saves(let count):
        let kept = saves.filter { isState($0.state) }
        let index = (isDirty ? kept.count : (kept.lastIndex { $0.state == current } ?? kept.count)) - count
        go(to: index >= 0 ? kept[index].state : start)
      }
      return true
    case .later(let span):
      guard groupStarts.isEmpty else { return false }
      let newestState = kept.last ?? start
      switch span {
      case .seconds(let seconds):
        let target = (time(of: current) ?? now.rounded(.down)) + seconds
        if target >= (time(of: newestState) ?? target) {
          go(to: newestState)
        } else {
          go(to: max(current, newest(atOrBefore: target) ?? current))
        }
      case .saves(let count):
        let kept = saves.filter { isState($0.state) }
        let base = time(of: current) ?? now.rounded(.down)
        let next: Int
        if !isDirty, let index = kept.lastIndex(where: { $0.state == current }) {
          next = index + count
        } else {
          next = (kept.firstIndex { $0.time > base || $0.state > current } ?? kept.count) + count - 1
        }
        go(to: next < kept.count ? kept[next].state : newestState)
      }
      return true
    case .tick(let seconds):
      now += Double(seconds)
      return true
    }
  }

  /// The newest kept state made at or before `time`.
  private func newest(atOrBefore time: Double) -> Int? {
    ([start] + kept).filter { (self.time(of: $0) ?? .infinity) <= time }.max()
  }

  /// Goes to `target`: back to the common ancestor, then down; each state passed
  /// remembers the way for `redo`.
  private mutating func go(to target: Int) {
    let from = path
    var down: [Int] = []
    var state = target
    while !from.contains(state) {
      down.insert(state, at: 0)
      state = nodes[state].parent
    }
    while current != state {
      redo[nodes[current].parent] = current
      current = nodes[current].parent
    }
    for step in down {
      redo[current] = step
      current = step
    }
  }

  private mutating func change(_ position: Int, to record: TaskRecord) -> Bool {
    var next = currentRecords
    next[position] = record
    commit(next)
    return true
  }

  /// A successful edit: a new step, or a change of the innermost group, unless
  /// it changed nothing.
  private mutating func commit(_ next: [TaskRecord]) {
    guard next != currentRecords else { return }
    if groupStarts.isEmpty {
      push(next)
    } else {
      working = next
      groupStarts[groupStarts.count - 1].changes += 1
    }
  }

  private mutating func push(_ state: [TaskRecord]) {
    let time = max(nodes.last?.time ?? 0, now.rounded(.down))
    nodes.append(Node(parent: current, state: state, time: time))
    redo[current] = nodes.count - 1
    current = nodes.count - 1
    enforceLimit()
  }

  /// The oldest step goes first: on the way to the current state, the start moves past it
  /// (and the other branches from the old start go); ahead on the current branch, that
  /// branch's newest step goes; otherwise its whole branch goes.
  private mutating func enforceLimit() {
    guard limit > 0 else { return }
    while kept.count > limit {
      let oldest = kept[0]
      if path.count > 1, path[1] == oldest {
        for number in kept where number != oldest && nodes[number].parent == start { drop(number) }
        nodes[oldest].alive = false
        start = oldest
        if let saved = savedState, saved < start { savedState = nil }
      } else if ahead.contains(oldest), let newest = ahead.last {
        drop(newest)
      } else {
        drop(oldest)
      }
    }
  }

  /// Drops `number` and every step below it.
  private mutating func drop(_ number: Int) {
    nodes[number].alive = false
    for other in kept where !nodes[other].alive || isBelow(other, number) { nodes[other].alive = false }
    if let saved = savedState, saved != start, !nodes[saved].alive { savedState = nil }
  }

  private func isBelow(_ state: Int, _ ancestor: Int) -> Bool {
    var walk = state
    while walk > ancestor { walk = nodes[walk].parent }
    return walk == ancestor
  }

  /// The model's own reading of a typed value, written from the value rules in the README, not from the codecs.
  static func assign(_ value: ValueToken, to field: String, in record: inout TaskRecord) -> Bool {
    switch (field, value) {
    case ("title", .word("null")): return false
    case ("title", .word(let text)), ("title", .quoted(let text)): record.title = text
    case ("done", .word("true")): record.done = true
    case ("done", .word("false")): record.done = false
    case ("priority", .word(let text)):
      guard let number = Int(text), (0...5).contains(number) else { return false }
      record.priority = number
    case ("tags", .list(let items)):
      var tags: [String] = []
      for item in items {
        guard case .word(let text) = item else { return false }
        tags.append(text)
      }
      record.tags = tags
    case ("due", .word("null")): record.due = .null
    case ("due", .word(let text)):
      let valid = ["2026-12-01", "2027-02-28T09:30:00Z", "2024-02-29"]
      guard valid.contains(text), let date = ISODate(text) else { return false }
      record.due = .value(date)
    case (let name, .word(let text)) where record.custom[name] != nil:
      record.custom[name] = Int(text) != nil ? .number(text) : .string(text)
    default: return false
    }
    return true
  }
}
