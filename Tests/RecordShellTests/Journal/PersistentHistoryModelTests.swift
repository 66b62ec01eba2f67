import Foundation
import Glibc
import RecordKit
import Testing

@testable import RecordShell

/// Random sessions over a real file and its history log, checked after every op against
/// a trivial model of the undo tree: edits, bulk edits (`set … where`, `delete where`), groups, undo, redo, `goto`, `earlier`/`later`
/// by saves, saves, quit-and-reopen, kill-and-recover, and changes made to the file by
/// another program between sessions. After every op the titles of the records, the dirty
/// flag, the current step and the tree (`history all`: each kept step and its parent)
/// agree with the model.
///
/// The model keeps the records' titles per state. Reopening puts it at its saved state;
/// recovery after a kill at the state the session was in (open groups closed and kept);
/// an outside change adds a step from the saved state holding the file's titles (with no
/// step yet, the file as it is becomes the start).
@Suite struct PersistentHistoryModelTests {
  /// Sessions per run; `RECSH_PERSISTENT_MODEL_SESSIONS` sets another number (scripts/fuzz
  /// runs more).
  static let sessionsPerRun =
    ProcessInfo.processInfo.environment["RECSH_PERSISTENT_MODEL_SESSIONS"].flatMap { Int($0) } ?? 10_000

  enum Op: Equatable, CustomStringConvertible {
    case set(Int, String)
    case new(String)
    case delete(Int)
    case begin
    case end
    case undo(Int)
    case redo
    case goto(Int)
    case earlierSave
    case save
    case reopen
    case kill
    case outside(String)
    /// `set title TO where title=FROM`: every record titled FROM, as one step.
    case bulkSet(from: String, to: String)
    /// `delete where title=TITLE`.
    case bulkDelete(String)

    var description: String {
      switch self {
      case .set(let position, let title): ".set(\(position), \"\(title)\")"
      case .new(let title): ".new(\"\(title)\")"
      case .delete(let position): ".delete(\(position))"
      case .begin: ".begin"
      case .end: ".end"
      case .undo(let count): ".undo(\(count))"
      case .redo: ".redo"
      case .goto(let state): ".goto(\(state))"
      case .earlierSave: ".earlierSave"
      case .save: ".save"
      case .reopen: ".reopen"
      case .kill: ".kill"
      case .outside(let title): ".outside(\"\(title)\")"
      case .bulkSet(let from, let to): ".bulkSet(from: \"\(from)\", to: \"\(to)\")"
      case .bulkDelete(let title): ".bulkDelete(\"\(title)\")"
      }
    }

    /// The command line, for the ops that are one.
    var line: String? {
      switch self {
      case .set(let position, let title): "use @\(position + 1); set title \(title)"
      case .new(let title): "new title \(title)"
      case .delete(let position): "delete @\(position + 1)"
      case .begin: "begin g"
      case .end: "end"
      case .undo(let count): "undo \(count)"
      case .redo: "redo"
      case .goto(let state): "goto \(state)"
      case .earlierSave: "earlier 1save"
      case .save: "save"
      case .bulkSet(let from, let to): "set title \(to) where title=\(from)"
      case .bulkDelete(let title): "delete where title=\(title)"
      case .reopen, .kill, .outside: nil
      }
    }
  }

  /// The model: a tree of title lists.
  struct Model {
    var titles: [[String]] = [["one", "two"]]
    var parents: [Int] = [0]
    var current = 0
    var redo: [Int: Int] = [:]
    var saved: Int? = 0
    var saves: [Int] = []
    /// Open groups: the titles at the outermost `begin`, the changes made, the depth.
    var groupStart: [String]?
    var working: [String] = []
    var depth = 0
    var changes = 0
    /// Whether the session made its log ready (its first change): until then it writes
    /// nothing, so an outside-change step made as it opened is not in the log yet.
    var active = false
    /// The model before the outside-change step its session has not written: a session
    /// that ends without a change leaves the log without it, and the next open works the
    /// outside change out again from the log's saved state.
    var beforeUnwritten:
      (titles: [[String]], parents: [Int], current: Int, redo: [Int: Int], saved: Int?, saves: [Int])?

    var records: [String] { depth > 0 ? working : titles[current] }
    var isDirty: Bool { (depth > 0 && changes > 0) || saved != current }
    var tree: [String] { (1..<titles.count).map { "\($0)<\(parents[$0])" } }

    /// Whether running `op` makes the session's log ready first: a command that may change
    /// the document (`Session.mayChange`) that is reached (`set`'s `use` must succeed).
    func activates(_ op: Op) -> Bool {
      switch op {
      case .set(let position, _): records.indices.contains(position)
      case .new, .delete, .bulkSet, .bulkDelete, .goto, .earlierSave, .save: true
      case .undo: current != 0 || (depth > 0 && changes > 0)
      case .redo: redo[current] != nil
      case .begin, .end, .reopen, .kill, .outside: false
      }
    }

    mutating func apply(_ op: Op) -> Bool {
      if activates(op) { (active, beforeUnwritten) = (true, nil) }
      switch op {
      case .set(let position, let title):
        guard records.indices.contains(position) else { return false }
        var next = records
        next[position] = title
        commit(next)
      case .new(let title): commit(records + [title])
      // A bulk edit that changes nothing records nothing, as `commit` does.
      case .bulkSet(let from, let to): commit(records.map { $0 == from ? to : $0 })
      case .bulkDelete(let title): commit(records.filter { $0 != title })
      case .delete(let position):
        guard records.indices.contains(position) else { return false }
        var next = records
        next.remove(at: position)
        commit(next)
      case .begin:
        if depth == 0 { (working, changes) = (titles[current], 0) }
        depth += 1
      case .end:
        guard depth > 0 else { return false }
        depth -= 1
        if depth == 0 && changes > 0 { push(working) }
      case .undo(let count):
        guard depth == 0, current != 0 else { return false }
        for _ in 0..<count where current != 0 {
          redo[parents[current]] = current
          current = parents[current]
        }
      case .redo:
        guard depth == 0, let child = redo[current] else { return false }
        current = child
      case .goto(let state):
        guard depth == 0, state < titles.count else { return false }
        go(to: state)
      case .earlierSave:
        guard depth == 0 else { return false }
        let index = (isDirty ? saves.count : (saves.lastIndex(of: current) ?? saves.count)) - 1
        go(to: index >= 0 ? saves[index] : 0)
      case .save:
        saved = current
        saves.append(current)
      case .reopen:
        // A session that wrote nothing: the next one makes the same outside step again.
        closeGroups()
        current = saved ?? current
        active = false
      case .kill:
        closeGroups()
        active = false
      case .outside(let title):
        closeGroups()
        current = saved ?? current
        var next = titles[current]
        // Always another value (a change that keeps every value is tested end to end).
        if next.isEmpty {
          next = [title]
        } else {
          next[0] = next[0] == title ? title + "o" : title
        }
        if !active, let before = beforeUnwritten {
          // The last outside step never reached the log: this one goes from the log's saved state.
          (titles, parents, current, redo, saved, saves) = before
        }
        (active, beforeUnwritten) = (false, nil)
        if titles.count == 1 {
          // No step yet: nothing to keep, the file as it is now is the start.
          titles[0] = next
          (saved, saves) = (0, [])
          return true
        }
        let before = (titles, parents, current, redo, saved, saves)
        // A file whose every record is as saved (only its layout differs: the harness
        // never writes the same bytes twice) is no step, but a save of the state.
        if next != titles[current] { push(next) }
        beforeUnwritten = before
        saved = current
        saves.append(current)
      }
      return true
    }

    private mutating func closeGroups() {
      while depth > 0 { _ = apply(.end) }
    }

    private mutating func commit(_ next: [String]) {
      guard next != records else { return }
      if depth > 0 {
        working = next
        changes += 1
      } else {
        push(next)
      }
    }

    private mutating func push(_ next: [String]) {
      titles.append(next)
      parents.append(current)
      redo[current] = titles.count - 1
      current = titles.count - 1
    }

    private mutating func go(to target: Int) {
      var from: [Int] = [current]
      while from.last != 0 { from.append(parents[from[from.count - 1]]) }
      var down: [Int] = []
      var state = target
      while !from.contains(state) {
        down.insert(state, at: 0)
        state = parents[state]
      }
      while current != state {
        redo[parents[current]] = current
        current = parents[current]
      }
      for step in down {
        redo[current] = step
        current = step
      }
    }
  }

  static let start = Array(#"[{"id": "a1", "title": "one"}, {"id": "b2", "title": "two"}]"#.utf8)

  @Test func randomSessionsAcrossReopensMatchTheModel() throws {
    let base = UInt64.random(in: 0...UInt64.max >> 1)
    for offset in 0..<UInt64(Self.sessionsPerRun) {
      let seed = base &+ offset
      var generator = SeededRandom(seed: seed)
      let ops = (0..<(Int(generator.next() % 16) + 1)).map { _ in Self.randomOp(using: &generator) }
      if let failure = try Self.check(ops) {
        Issue.record("seed \(seed) fails: \(failure)\n[\(ops.map(\.description).joined(separator: ", "))]")
        return
      }
    }
  }

  /// Runs `ops` on a session over a fresh file and on the model; the first disagreement.
  static func check(_ ops: [Op]) throws -> String? {
    // In memory where the machine has it: what is checked does not depend on the disk.
    let memory = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    return try TestDirectory.with(in: memory) { folder in
      try folder.write("t.json", Self.start)
      let path = folder.path("t.json")
      let fileSystem = FaultInjectingFileSystem()
      fileSystem.flushes = false
      func open(_ recovery: RecoveryChoice = .refuse) throws -> Session<TaskRecord> {
        try retryingLock {
          try Session<TaskRecord>.open(
            path: path, fileSystem: fileSystem, undoLimit: 0, recovery: recovery,
            stateFolder: testState(for: path)
          )
          .session
        }
      }
      var session = try open()
      var model = Model()
      var outsideWrites = 0
      for (index, op) in ops.enumerated() {
        // A save inside a group writes a state no step names: `JournalRecoveryTests` and
        // the crash sweep cover it; this model leaves it out.
        if op == .save && model.depth > 0 { continue }
        let succeeded: Bool
        switch op {
        case .reopen:
          _ = session.endOfInput()
          session.close()
          session = try open()
          succeeded = true
        case .kill:
          session.writeJournal()
          session.simulateKill()
          session = try open(.recover)
          succeeded = true
        case .outside(let title):
          _ = session.endOfInput()
          session.close()
          var records = try RecordFile<TaskRecord>.decode(try folder.read("t.json")).document.records
          if records.isEmpty {
            records = [TaskRecord(id: "o1")]
            records[0].title = title
          } else {
            records[0].title = records[0].title == title ? title + "o" : title
          }
          // Another program's formatting: one line, other spacing; never the same bytes
          // twice (a final run of line breaks, one longer each time), so an outside change
          // is always one, if only of layout.
          outsideWrites += 1
          let text =
            "[" + records.map { #"{"id":"\#($0.id)","title":"\#($0.title ?? "")"}"# }.joined(separator: ",")
            + "]" + String(repeating: "\n", count: outsideWrites)
          try folder.write("t.json", Array(text.utf8))
          session = try open()
          succeeded = true
        default:
          succeeded = (try? session.run(line: op.line ?? "")) != nil
        }
        let expected = model.apply(op)
        let at = "op \(index) \(op)"
        if succeeded != expected {
          return "\(at): session \(succeeded ? "succeeded" : "failed"), model did not"
        }
        let titles = session.document.records.map { $0.title ?? "" }
        if titles != model.records { return "\(at): records \(titles), model \(model.records)" }
        if session.isDirty != model.isDirty {
          return "\(at): dirty \(session.isDirty), model \(model.isDirty)"
        }
        if model.depth == 0 {
          let history = session.editor.history
          if history.current != model.current {
            return "\(at): at \(history.current), model \(model.current)"
          }
          let tree = history.keptSteps.map { "\($0.number)<\($0.parent)" }
          if tree != model.tree { return "\(at): tree \(tree), model \(model.tree)" }
        }
      }
      session.close()
      return nil
    }
  }

  static func randomOp(using g: inout SeededRandom) -> Op {
    let position = Int(g.next() % 3)
    let title = ["a", "b", "c"][Int(g.next() % 3)]
    switch g.next() % 100 {
    case 0..<20: return .set(position, title)
    case 20..<25: return .bulkSet(from: ["a", "b", "c", "one", "two"][Int(g.next() % 5)], to: title)
    case 25..<31: return .new(title)
    case 31..<33: return .delete(position)
    case 33..<35: return .bulkDelete(["a", "b", "c", "one", "two"][Int(g.next() % 5)])
    case 35..<40: return .begin
    case 40..<45: return .end
    case 45..<56: return .undo(Int(g.next() % 2) + 1)
    case 56..<63: return .redo
    case 63..<68: return .goto(Int(g.next() % 8))
    case 68..<71: return .earlierSave
    case 71..<81: return .save
    case 81..<89: return .reopen
    case 89..<94: return .kill
    default: return .outside(title)
    }
  }
}

/// A repeatable generator for a printed seed (xorshift64*).
struct SeededRandom: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed | 1 }
  mutating func next() -> UInt64 {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return state &* 2_685_821_657_736_338_717
  }
}
