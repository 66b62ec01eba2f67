import Foundation
import Testing

@testable import RecordKit

/// Random editing sessions checked, after every step, against `HistoryModel`,
/// a trivial model of the undo tree that keeps whole snapshots: edits, groups, undo,
/// redo, `goto`, `earlier`/`later` by time and by saves (with a clock the ops move),
/// saves and the limit.
/// The editor's clock in a model test: the ops move it.
final class TestClock: @unchecked Sendable {
  var now: Double
  init(now: Double) { self.now = now }
}

@Suite struct HistoryModelTests {
  static let sequencesPerRun = 10_000

  /// Sequences that once failed, kept as regression cases once shrunk.
  static let regressions: [[ModelOp]] = [
    // Undoing a custom field's creation left a hidden slot, so creating it again put it back
    // before keys created since (tombstones; fixed by giving custom values their position).
    [
      .new(title: nil), .createCustom(0, "size", .word("red")), .new(title: "b"), .undo(2),
      .createCustom(0, "color", .word("red")), .createCustom(0, "size", .word("7")),
    ],
    // A group whose edits cancel out is still a step: the model counts changes, not state.
    [
      .new(title: "a"), .begin("g"), .set(0, [.init(field: "title", value: .word("b"))]),
      .set(0, [.init(field: "title", value: .word("a"))]), .end, .undo(1), .redo(1),
    ],
    // Lowering the limit with the cursor at the start drops redo steps from the far end.
    [.new(title: "a"), .new(title: "b"), .new(title: "c"), .undo(3), .limit(1), .redo(5)],
    // Undo of an unset custom field puts the key back at its place.
    [
      .new(title: nil), .createCustom(0, "color", .word("red")), .createCustom(0, "size", .word("7")),
      .unset(0, "color"), .undo(1),
    ],
  ]

  @Test(arguments: 0..<regressions.count)
  func regressionCaseMatchesTheModel(index: Int) {
    if let failure = Self.check(Self.regressions[index], limit: 4) {
      Issue.record("regression \(index): \(failure)")
    }
  }

  @Test func randomSessionsMatchTheModel() {
    // RECSH_MODEL_SEED=N replays a printed seed first.
    let replay = ProcessInfo.processInfo.environment["RECSH_MODEL_SEED"].flatMap { UInt64($0) }
    let base = replay ?? UInt64.random(in: 0...UInt64.max >> 1)
    for offset in 0..<UInt64(Self.sequencesPerRun) {
      let seed = base &+ offset
      var generator = SplitMix64(seed: seed)
      let limit = [0, 1, 3, 10].pick(using: &generator)
      let ops = Self.randomOps(using: &generator)
      guard Self.check(ops, limit: limit) != nil else { continue }
      let shrunk = Self.shrink(ops, limit: limit)
      let failure = Self.check(shrunk, limit: limit) ?? "?"
      Issue.record(
        """
        seed \(seed) (limit \(limit)) fails: \(failure)
        shrunk sequence, to keep in `regressions`:
        [\(shrunk.map(\.description).joined(separator: ", "))]
        """)
      return
    }
  }

  /// The same random sessions over run-time kinds, with the same model: a schema kind
  /// that declares the task's fields with the task's rules, and a kind inferred from
  /// task-shaped records (which knows no range for `priority`, so these sessions set no
  /// priority out of range). Neither can say "optional but not removable" as the task's
  /// `title` is, so these sessions do not unset `title`. The run-time records are
  /// compared with the model's as the task records their members make.
  @Test(arguments: [Variant.schema, .inferred]) func randomSessionsOverRunTimeKindsMatchTheModel(
    _ variant: Variant
  ) throws {
    let kind = try variant.kind()
    let base = UInt64.random(in: 0...UInt64.max >> 1)
    RunTimeKind.$current.withValue(kind) {
      for offset in 0..<UInt64(Self.sequencesPerRun / 5) {
        let seed = base &+ offset
        var generator = SplitMix64(seed: seed)
        let limit = [0, 1, 3, 10].pick(using: &generator)
        let ops = Self.randomOps(using: &generator, variant: variant)
        if let failure = Self.check(ops, limit: limit, as: RunTimeRecord.self, tasks: Self.tasks) {
          Issue.record(
            "\(variant) seed \(seed) (limit \(limit)): \(failure)\n[\(ops.map(\.description).joined(separator: ", "))]"
          )
          return
        }
      }
    }
  }

  enum Variant: CustomStringConvertible, Sendable {
    case task, schema, inferred
    var description: String { "\(self == .schema ? "schema" : self == .inferred ? "inferred" : "task") kind" }

    func kind() throws -> RunTimeKind {
      switch self {
      case .task, .schema:
        let schema = try RecordSchema(
          reading: try JSONValue.parse(
            bytes: Array(
              #"""
              {"title": "tasks", "properties": {
                "id": {"type": "string"}, "title": {"type": "string"}, "detail": {"type": "string"},
                "done": {"type": "boolean"}, "priority": {"type": "integer", "minimum": 0, "maximum": 5},
                "tags": {"type": "array", "items": {"type": "string"}},
                "due": {"type": ["string", "null"], "format": "date"}}}
              """#.utf8)))
        return RunTimeKind(name: "tasks", schema: schema, key: RecordKey(name: "id", isInteger: false))
      case .inferred:
        var inference = KindInference()
        for text in [
          #"{"id": "a", "title": "t", "detail": "d", "done": true, "priority": 1, "tags": ["x"], "due": "2026-12-01"}"#,
          #"{"id": "b", "due": null}"#, #"{"id": "c"}"#,
        ] {
          guard case .object(let object) = try JSONValue.parse(bytes: Array(text.utf8)) else { fatalError() }
          inference.add(CustomFields(object.members))
        }
        let schema = try RecordSchema(reading: inference.schemaDocument(title: "tasks"))
        return RunTimeKind(name: "tasks", schema: schema, key: RecordKey(name: "id", isInteger: false))
      }
    }
  }

  /// Run-time records as the task records their members make.
  static func tasks(_ records: [RunTimeRecord]) -> [TaskRecord] {
    records.map { record in
      (try? TaskRecord.fields.decode(JSONObject(record.custom.members)))
        ?? TaskRecord(id: "(not a task: \(record))")
    }
  }

  /// Runs `ops` on an editor and the model side by side; the first disagreement, or `nil`.
  static func check(_ ops: [ModelOp], limit: Int) -> String? {
    check(ops, limit: limit, as: TaskRecord.self) { $0 }
  }

  static func check<Root: Record>(
    _ ops: [ModelOp], limit: Int, as kind: Root.Type, tasks: ([Root]) -> [TaskRecord]
  ) -> String? {
    var model = HistoryModel(limit: limit)
    let clock = TestClock(now: model.now)
    var editor = Editor<Root>(undoLimit: limit, clock: { clock.now })
    for (step, op) in ops.enumerated() {
      let id = "r\(model.nextID)"
      if case .tick(let seconds) = op { clock.now += Double(seconds) }
      let succeeded = perform(op, on: &editor, newID: id)
      let expected = model.apply(op)
      if let problem = compare(
        editor, model, step: step, op: op, succeeded: succeeded, expected: expected, tasks)
      {
        return problem
      }
    }
    // End of input: open groups are closed and kept.
    editor.closeAllGroups()
    while !model.groupStarts.isEmpty { _ = model.apply(.end) }
    if tasks(editor.document.records) != model.currentRecords { return "closing open groups: state differs" }
    // Every kept state, reached with `goto` from wherever the one before left the editor.
    for state in [0] + model.kept {
      _ = try? editor.goto(state)
      _ = model.apply(.goto(state))
      if tasks(editor.document.records) != model.currentRecords { return "goto \(state): state differs" }
    }
    return nil
  }

  private static func compare<Root: Record>(
    _ editor: Editor<Root>, _ model: HistoryModel, step: Int, op: ModelOp, succeeded: Bool,
    expected: Bool, _ tasks: ([Root]) -> [TaskRecord]
  ) -> String? {
    let at = "step \(step) \(op)"
    let history = editor.history
    if succeeded != expected { return "\(at): editor \(succeeded ? "succeeded" : "failed"), model did not" }
    if tasks(editor.document.records) != model.currentRecords { return "\(at): state differs" }
    if editor.isDirty != model.isDirty { return "\(at): dirty is \(editor.isDirty), model \(model.isDirty)" }
    if history.current != model.current { return "\(at): at step \(history.current), model \(model.current)" }
    if history.start != model.start { return "\(at): start \(history.start), model \(model.start)" }
    if history.savedState != model.savedState {
      return
        "\(at): saved state \(String(describing: history.savedState)), model \(String(describing: model.savedState))"
    }
    // `history all`: the tree's steps with their parents and times.
    let tree = history.keptSteps.map { "\($0.number)<\($0.parent)@\(Int($0.time))" }
    let modelTree = model.kept.map { "\($0)<\(model.nodes[$0].parent)@\(Int(model.nodes[$0].time))" }
    if tree != modelTree { return "\(at): tree \(tree), model \(modelTree)" }
    // `history`: the current branch.
    if history.branch.map(\.number) != Array(model.path.dropFirst()) + model.ahead {
      return
        "\(at): branch \(history.branch.map(\.number)), model \(Array(model.path.dropFirst()) + model.ahead)"
    }
    if history.openGroups.count != model.groupStarts.count { return "\(at): open group count" }
    // The way to each state, counted without being listed (the count of unsaved changes).
    for state in [history.start] + model.kept {
      let listed = history.route(to: state).map { [$0.revert.count, $0.apply.count] }
      let counted = history.routeLength(to: state).map { [$0.revert, $0.apply] }
      if listed != counted {
        return
          "\(at): the way to \(state) is \(String(describing: listed)), counted \(String(describing: counted))"
      }
    }
    return nil
  }

  /// Runs one op through the editor's public API; whether it succeeded.
  static func perform<Root: Record>(_ op: ModelOp, on editor: inout Editor<Root>, newID: String) -> Bool {
    func id(_ position: Int) throws -> String {
      guard editor.document.records.indices.contains(position) else { throw RefError.unknown("@\(position)") }
      return editor.document.records[position].id
    }
    do {
      switch op {
      case .new(let title):
        try editor.newRecord(id: newID, title.map { [FieldAssignment("title", .quoted($0))] } ?? [])
      case .delete(let position):
        try editor.deleteRecord(at: position)
      case .set(let position, let pairs):
        try editor.set(
          FieldAssignments(pairs.map { FieldAssignment($0.field, $0.value) }), onRecord: try id(position))
      case .createCustom(let position, let name, let value):
        try editor.set([FieldAssignment(name, value, createsCustomField: true)], onRecord: try id(position))
      case .unset(let position, let name):
        try editor.unset(name, onRecord: try id(position))
      case .tag(let position, let tag, let add):
        try editor.editList("tags", .word(tag), adding: add, onRecord: try id(position))
      case .begin(let name): editor.begin(name)
      case .end: try editor.end()
      case .rollback: try editor.rollback()
      case .undo(let count): _ = try editor.undo(count)
      case .redo(let count): _ = try editor.redo(count)
      case .limit(let limit): editor.setUndoLimit(limit)
      case .save: editor.markSaved()
      case .goto(let state): _ = try editor.goto(state)
      case .earlier(let span): _ = try editor.earlier(span)
      case .later(let span): _ = try editor.later(span)
      case .tick: break
      }
      return true
    } catch {
      return false
    }
  }

  static func randomOps(using generator: inout SplitMix64, variant: Variant = .task) -> [ModelOp] {
    let length = generator.int(40) + 1
    var ops = (0..<length).map { _ in randomOp(using: &generator, variant: variant) }
    // Now and then a group of more one-field sets than `CommandList.compactionThreshold`,
    // whose later edits are written straight into rows of the group's store.
    if generator.int(25) == 0 {
      let sets = (0..<CommandList<TaskRecord>.compactionThreshold + 10).map { _ in
        ModelOp.set(generator.int(5), [randomPair(using: &generator, variant: variant)])
      }
      ops.insert(contentsOf: [.begin("many")] + sets, at: generator.int(ops.count + 1))
    }
    return ops
  }

  static func randomOp(using g: inout SplitMix64, variant: Variant = .task) -> ModelOp {
    let position = g.int(5)
    switch g.int(100) {
    case 0..<12: return .new(title: [nil, "a", "b"].pick(using: &g))
    case 12..<17: return .delete(position)
    case 17..<45:
      let count = g.int(3) + 1
      return .set(position, (0..<count).map { _ in randomPair(using: &g, variant: variant) })
    case 45..<49:
      return .createCustom(position, ["color", "size", "due"].pick(using: &g), randomWord(using: &g))
    case 49..<54:
      return .unset(
        position,
        (variant == .task ? ["due", "color", "title", "size"] : ["due", "color", "size"]).pick(using: &g))
    case 54..<60: return .tag(position, ["a", "b"].pick(using: &g), add: g.int(2) == 0)
    case 60..<67: return .begin([nil, "g"].pick(using: &g))
    case 67..<73: return .end
    case 73..<76: return .rollback
    case 76..<83: return .undo(g.int(3) + 1)
    case 83..<88: return .redo(g.int(3) + 1)
    case 88..<90: return .limit([0, 1, 2, 5].pick(using: &g))
    case 90..<92: return .goto(g.int(12))
    case 92..<94:
      let span: HistorySpan =
        g.int(3) == 0 ? .saves(g.int(3) + 1) : .seconds(Double([1, 5, 60, 3600].pick(using: &g)))
      return g.int(2) == 0 ? .earlier(span) : .later(span)
    case 94..<97: return .tick([0, 1, 2, 30].pick(using: &g))
    default: return .save
    }
  }

  private static func randomWord(using g: inout SplitMix64) -> ValueToken {
    .word(["red", "blue", "7"].pick(using: &g))
  }

  private static func randomPair(using g: inout SplitMix64, variant: Variant) -> ModelOp.Pair {
    let values: [String: [ValueToken]] = [
      "title": [.word("a"), .word("b"), .quoted("a b"), .word("null"), .quoted("null")],
      "done": [.word("true"), .word("false"), .word("yes")],
      "priority": variant == .inferred
        ? [.word("0"), .word("3"), .word("5"), .quoted("3")]
        : [.word("0"), .word("3"), .word("5"), .word("6"), .word("-1"), .quoted("3")],
      "tags": [.list([]), .list([.word("a"), .word("b")]), .word("a"), .list([.list([])])],
      "due": [
        .word("2026-12-01"), .word("2024-02-29"), .word("2026-02-30"), .word("null"), .word("tomorrow"),
      ],
      "color": [.word("red"), .word("7")],
      "titel": [.word("a")],
    ]
    let field = ["title", "title", "done", "priority", "tags", "due", "color", "titel"].pick(using: &g)
    return ModelOp.Pair(field: field, value: values[field, default: []].pick(using: &g))
  }

  /// Removes ops one at a time while the sequence still fails.
  static func shrink(_ ops: [ModelOp], limit: Int) -> [ModelOp] {
    var current = ops
    var index = 0
    while index < current.count {
      var candidate = current
      candidate.remove(at: index)
      if check(candidate, limit: limit) != nil {
        current = candidate
      } else {
        index += 1
      }
    }
    return current
  }
}
