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

/// The trivial model of the undo engine: whole snapshots of the record list.
///
/// It knows nothing of commands: an edit is a change of one snapshot, undo is
/// moving back in a list of snapshots, a group is "the snapshot at begin".
struct HistoryModel {
  /// Reachable states, oldest first; `states[cursor]` is the current one
  /// unless a group is open.
  var states: [[TaskRecord]] = [[]]
  var cursor = 0
  /// Absolute position of `states[0]` (how many states the limit dropped).
  var dropped = 0
  var savePosition: Int? = 0
  var limit: Int
  /// Per open group: the state at its `begin` and how many changes it made
  /// (edits that cancel out are still changes); `working` is the live state.
  var groupStarts: [(start: [TaskRecord], changes: Int)] = []
  var working: [TaskRecord] = []
  var nextID = 1

  init(limit: Int) {
    self.limit = limit
  }

  var current: [TaskRecord] { groupStarts.isEmpty ? states[cursor] : working }
  var position: Int { dropped + cursor }
  var isDirty: Bool {
    if groupStarts.contains(where: { $0.changes > 0 }) { return true }
    return savePosition != position
  }

  /// Applies `op`; returns whether it succeeded (a failure must change nothing).
  mutating func apply(_ op: ModelOp) -> Bool {
    switch op {
    case .new(let title):
      var record = TaskRecord(id: "r\(nextID)")
      nextID += 1
      record.title = title
      var next = current
      next.append(record)
      commit(next)
      return true
    case .delete(let position):
      guard current.indices.contains(position) else { return false }
      var next = current
      next.remove(at: position)
      commit(next)
      return true
    case .set(let position, let pairs):
      guard current.indices.contains(position) else { return false }
      var record = current[position]
      var seen: Set<String> = []
      for pair in pairs {
        guard seen.insert(pair.field).inserted, Self.assign(pair.value, to: pair.field, in: &record)
        else { return false }
      }
      return change(position, to: record)
    case .createCustom(let position, let name, let value):
      guard current.indices.contains(position), record(position).custom[name] == nil,
        TaskRecord.fields.field(named: name) == nil
      else { return false }
      var record = current[position]
      record.custom[name] = CustomFieldCodec.infer(value)
      return change(position, to: record)
    case .unset(let position, let name):
      guard current.indices.contains(position) else { return false }
      var record = current[position]
      switch name {
      case "due": record.due = nil
      case _ where record.custom[name] != nil: record.custom[name] = nil
      default: return false
      }
      return change(position, to: record)
    case .tag(let position, let tag, let add):
      guard current.indices.contains(position) else { return false }
      var record = current[position]
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
      if groupStarts.isEmpty { working = states[cursor] }
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
      guard groupStarts.isEmpty, cursor > 0 else { return false }
      cursor = max(0, cursor - count)
      return true
    case .redo(let count):
      guard groupStarts.isEmpty, cursor < states.count - 1 else { return false }
      cursor = min(states.count - 1, cursor + count)
      return true
    case .limit(let newLimit):
      limit = newLimit
      enforceLimit()
      return true
    case .save:
      savePosition = groupStarts.allSatisfy { $0.changes == 0 } ? position : nil
      return true
    }
  }

  private func record(_ position: Int) -> TaskRecord { current[position] }

  private mutating func change(_ position: Int, to record: TaskRecord) -> Bool {
    var next = current
    next[position] = record
    commit(next)
    return true
  }

  /// A successful edit: a new step, or a change of the innermost group, unless
  /// it changed nothing.
  private mutating func commit(_ next: [TaskRecord]) {
    guard next != current else { return }
    if groupStarts.isEmpty {
      push(next)
    } else {
      working = next
      groupStarts[groupStarts.count - 1].changes += 1
    }
  }

  private mutating func push(_ state: [TaskRecord]) {
    if cursor < states.count - 1 {
      states.removeSubrange((cursor + 1)...)
      if let save = savePosition, save > position { savePosition = nil }
    }
    states.append(state)
    cursor += 1
    enforceLimit()
  }

  private mutating func enforceLimit() {
    guard limit > 0 else { return }
    while states.count - 1 > limit {
      if cursor > 0 {
        states.removeFirst()
        cursor -= 1
        dropped += 1
      } else {
        states.removeLast()
      }
    }
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
