import Testing

@testable import RecordKit

/// `StepStore` against an array of commands as its model: one-field edits become rows of
/// typed columns and must read back as the same commands (compared by their encoding),
/// whatever was dropped, removed from the front or appended to a copy.
@Suite struct StepStoreTests {
  typealias Store = StepStore<TaskRecord>

  static let title = TaskRecord.fields.field(named: "title") as? KeyPathField<TaskRecord, TextCodec>
  static let priority =
    TaskRecord.fields.field(named: "priority") as? KeyPathField<TaskRecord, IntCodec<Int8>>

  /// A random command: mostly one-field edits (either value may be absent, any action),
  /// some of a new custom accessor each time, some that are not rows.
  static func randomCommand(_ g: inout SplitMix64, serial: Int) throws -> Command<TaskRecord>? {
    let title = try #require(Self.title)
    let priority = try #require(Self.priority)
    let record = RecordNumber(UInt32(g.int(1_000)))
    let action = EditAction.allCases.pick(using: &g)
    func maybe<T>(_ value: T) -> T? { g.int(4) == 0 ? nil : value }
    switch g.int(100) {
    case 0..<40:
      let (old, new) = (maybe(Int8(g.int(6))), maybe(Int8(g.int(6))))
      return .edit(PropertyUpdate(record: record, field: priority, old: old, new: new, action: action))
    case 40..<70:
      let (old, new) = (maybe(BlockText("old \(serial)")), maybe(BlockText("é \(g.int(50))")))
      return .edit(PropertyUpdate(record: record, field: title, old: old, new: new, action: action))
    case 70..<78:
      // A custom field is a new accessor each time: a column each, up to the limit.
      let field = FieldTable<TaskRecord>.custom("c\(serial % 300)")
      let value = CustomValue(.string("v\(serial)"))
      return .edit(PropertyUpdate(record: record, field: field, old: maybe(value), new: value, action: .set))
    case 78..<86:
      return .edits([
        PropertyUpdate(record: record, field: priority, old: 1, new: 2, action: .set),
        PropertyUpdate(record: record, field: title, old: nil, new: BlockText("t"), action: .set),
      ])
    case 86..<94:
      return .insert(TaskRecord(id: "n\(serial)"), number: record, at: g.int(10))
    default:
      return nil
    }
  }

  static func agree(_ store: Store, _ model: [Command<TaskRecord>?], _ context: String) {
    #expect(store.count == model.count, "\(context)")
    // What is held is what the slots name: the rows and commands of removed slots are freed.
    let shape = store.shape
    let rows = shape.filter { if case .row = $0 { true } else { $0 == .droppedRow } }.count
    let others = shape.filter { if case .other = $0 { true } else { $0 == .droppedOther } }.count
    #expect(store.held.rows == rows && store.held.others == others, "\(context)")
    for index in model.indices {
      let kept = model[index] != nil
      guard store.isKept(index) == kept, store[index]?.encoded() == model[index]?.encoded() else {
        Issue.record(
          "\(context): slot \(index) reads \(String(describing: store[index]?.encoded())), kept \(store.isKept(index)); the model has \(String(describing: model[index]?.encoded()))"
        )
        return
      }
    }
  }

  @Test func commandsReadBackAsTheyWereThroughDropsFrontRemovalsAndCopies() throws {
    for seed in 0..<4 {
      var g = SplitMix64(seed: UInt64(seed))
      var store = Store(emptySlots: 1)
      var model: [Command<TaskRecord>?] = [nil]
      var copies: [(Store, [Command<TaskRecord>?])] = []
      for serial in 0..<12_000 {
        switch g.int(100) {
        case 0..<80:
          let command = try Self.randomCommand(&g, serial: serial)
          store.append(command)
          model.append(command)
        case 80..<92 where !model.isEmpty:
          let index = g.int(model.count)
          store.drop(index)
          model[index] = nil
        case 92..<95 where model.count > 1:
          let k = g.int(min(model.count, 6_000))
          store.removeFirst(k)
          model.removeFirst(k)
        case 95..<97:
          // A copy goes its own way; the original goes on too.
          copies.append((store, model))
          var (copy, copyModel) = copies[copies.count - 1]
          for extra in 0..<20 {
            let command = try Self.randomCommand(&g, serial: -extra)
            copy.append(command)
            copyModel.append(command)
          }
          copy.removeFirst(1)
          copyModel.removeFirst(1)
          Self.agree(copy, copyModel, "seed \(seed), copy at \(serial)")
        default:
          break
        }
        if serial % 499 == 0 { Self.agree(store, model, "seed \(seed), serial \(serial)") }
      }
      Self.agree(store, model, "seed \(seed), at the end")
      for (index, (copy, copyModel)) in copies.enumerated() {
        Self.agree(copy, copyModel, "seed \(seed), copy \(index)")
      }
    }
  }

  @Test func aRowIsAppliedRevertedAndNamedAsItsCommandWouldBe() throws {
    var g = SplitMix64(seed: 11)
    let base = try Document(records: (0..<1_000).map { TaskRecord(id: "t\($0)") })
    var store = Store(emptySlots: 0)
    var commands: [Command<TaskRecord>?] = []
    for serial in 0..<600 {
      let command = try Self.randomCommand(&g, serial: serial)
      store.append(command)
      commands.append(command)
    }
    var (rows, changed) = (0, 0)
    for (index, command) in commands.enumerated() {
      for forward in [true, false] {
        var byCommand = base
        var byRow = base
        let wrote = store.writeRow(index, forward: forward, in: &byRow)
        guard case .edit = command, case .row = store.shape[index] else {
          #expect(!wrote && byRow.records == base.records && store.rowName(index) == nil)
          continue
        }
        rows += 1
        if forward { command?.apply(to: &byCommand) } else { command?.revert(in: &byCommand) }
        #expect(wrote && byRow.records == byCommand.records, "slot \(index), forward \(forward)")
        if byRow.records != base.records { changed += 1 }
        #expect(store.rowName(index) == command?.name)
      }
    }
    #expect(rows > 500 && changed > rows / 2, "the writes must change records: \(changed) of \(rows)")
  }

  @Test func oneFieldEditsAreRowsAndTheRestIsKeptWhole() throws {
    let priority = try #require(Self.priority)
    var store = Store(emptySlots: 0)
    store.append(
      .edit(PropertyUpdate(record: RecordNumber(4), field: priority, old: 1, new: nil, action: .unset)))
    store.append(
      .edit(PropertyUpdate(record: RecordNumber(5), field: priority, old: nil, new: nil, action: .set)))
    store.append(.insert(TaskRecord(id: "x"), number: RecordNumber(9), at: 0))
    #expect(store.shape == [.row(column: 0, row: 0), .other(0), .other(1)])
    #expect(
      store[0]?.encoded()
        == Command<TaskRecord>.edit(
          PropertyUpdate(record: RecordNumber(4), field: priority, old: 1, new: nil, action: .unset)
        ).encoded())
  }

  /// `holdsOnlyRows` (what lets a closed group of a million rows skip asking each of them
  /// whether it is a stored command): true while every command is a row, false from the
  /// first that is kept whole, and still false once that one is dropped or removed.
  @Test func aStoreSaysWhetherItHoldsRowsOnly() throws {
    let priority = try #require(Self.priority)
    var store = Store(emptySlots: 0)
    #expect(store.holdsOnlyRows)
    for number in 0..<10 {
      store.append(
        .edit(
          PropertyUpdate(record: RecordNumber(UInt32(number)), field: priority, old: 1, new: 2, action: .set))
      )
    }
    #expect(store.holdsOnlyRows)
    store.append(.insert(TaskRecord(id: "x"), number: RecordNumber(90), at: 0))
    #expect(!store.holdsOnlyRows)
    store.drop(10)
    #expect(!store.holdsOnlyRows)
    store.removeFirst(11)
    #expect(!store.holdsOnlyRows)
  }

  @Test func pastTheColumnLimitEditsAreKeptWhole() {
    var store = Store(emptySlots: 0)
    for serial in 0...Store.columnLimit {
      let field = FieldTable<TaskRecord>.custom("c\(serial)")
      store.append(
        .edit(
          PropertyUpdate(
            record: RecordNumber(1), field: field, old: nil, new: CustomValue(.number("1")), action: .set)))
    }
    #expect(store.shape.last == .other(0))
    #expect(store.shape[Store.columnLimit - 1] == .row(column: Store.columnLimit - 1, row: 0))
  }
}

/// A history far past its limit, so that its storage is compacted many times, undone to
/// the oldest kept state and redone, against snapshots of the records.
@Suite struct LongHistoryTests {
  @Test func aLongHistoryUnderItsLimitUndoesAndRedoesEveryKeptStep() throws {
    let count = 6
    let limit = 3_000
    var g = SplitMix64(seed: 7)
    var editor = Editor<TaskRecord>(
      document: try Document(records: (0..<count).map { TaskRecord(id: "t\($0)") }), undoLimit: limit)
    func snapshot() -> [String] {
      editor.document.records.map { "\($0.priority.map(String.init) ?? "-") \($0.title ?? "-")" }
    }
    var snapshots = [snapshot()]
    var made = 0
    while made < 14_000 {
      let position = g.int(count)
      let priority = String(g.int(6))
      let assignments: FieldAssignments =
        switch g.int(10) {
        case 0: [FieldAssignment("title", .word("w\(made)")), FieldAssignment("priority", .word(priority))]
        case 1, 2: [FieldAssignment("title", .word("w\(made)"))]
        default: [FieldAssignment("priority", .word(priority))]
        }
      let before = editor.history.nextNumber
      try editor.set(assignments, at: position)
      guard editor.history.nextNumber > before else { continue }  // It changed nothing.
      made += 1
      snapshots.append(snapshot())
    }
    #expect(editor.history.keptCount == limit)
    _ = try editor.undo(limit)
    #expect(snapshot() == snapshots[snapshots.count - 1 - limit])
    #expect(!editor.history.canUndo)
    _ = try editor.redo(limit / 2)
    #expect(snapshot() == snapshots[snapshots.count - 1 - limit + limit / 2])
    _ = try editor.redo(limit)
    #expect(snapshot() == snapshots[snapshots.count - 1])
  }
}

/// `CommandList` against an array of the same commands, on both sides of the size at which
/// it moves into a `StepStore`.
@Suite struct CommandListTests {
  @Test func aListReadsAppliesAndRevertsAsItsArrayWould() throws {
    var g = SplitMix64(seed: 5)
    let base = try Document(records: (0..<1_000).map { TaskRecord(id: "t\($0)") })
    for length in [
      0, 1, 3, CommandList<TaskRecord>.compactionThreshold, CommandList<TaskRecord>.compactionThreshold + 1,
      700,
    ] {
      var commands: [Command<TaskRecord>] = []
      while commands.count < length {
        // (Inserts are left out: applying a list of them would need free positions.)
        guard let command = try StepStoreTests.randomCommand(&g, serial: commands.count) else { continue }
        if case .insert = command { continue }
        commands.append(command)
      }
      var list = CommandList<TaskRecord>()
      for command in commands { list.append(command) }
      #expect(list.isCompacted == (length > CommandList<TaskRecord>.compactionThreshold))
      #expect(list.count == length && CommandList(commands).count == length)
      #expect(list.map { $0.encoded() } == commands.map { $0.encoded() }, "length \(length)")
      // A row's record is read without its edit, and is that edit's record.
      var rows = 0
      for index in commands.indices {
        guard let record = list.rowRecord(at: index) else { continue }
        rows += 1
        guard case .edit(let edit) = commands[index], edit.record == record else {
          Issue.record("length \(length): slot \(index) reads as a row of record \(record.value)")
          continue
        }
      }
      #expect(list.isCompacted ? rows > 0 : rows == 0, "length \(length): \(rows) rows")
      var (byList, byArray) = (base, base)
      Command.group(name: nil, list).apply(to: &byList)
      for command in commands { command.apply(to: &byArray) }
      #expect(byList.records == byArray.records, "apply, length \(length)")
      Command.group(name: nil, list).revert(in: &byList)
      for command in commands.reversed() { command.revert(in: &byArray) }
      #expect(byList.records == byArray.records, "revert, length \(length)")
    }
  }

  @Test func aLargeGroupIsUndoneAndRedoneWhole() throws {
    var editor = Editor<TaskRecord>(
      document: try Document(records: (0..<20).map { TaskRecord(id: "t\($0)") }))
    let before = editor.document.records
    editor.begin("many")
    for edit in 0..<1_000 {
      try editor.set(
        [FieldAssignment(edit % 3 == 0 ? "title" : "priority", .word(String(edit % 6)))], at: edit % 20)
    }
    try editor.end()
    let after = editor.document.records
    guard case .group(_, let commands)? = editor.history.command(editor.history.current) else {
      Issue.record("the group is not the current step")
      return
    }
    #expect(commands.isCompacted && commands.count > CommandList<TaskRecord>.compactionThreshold)
    _ = try editor.undo()
    #expect(editor.document.records == before)
    _ = try editor.redo()
    #expect(editor.document.records == after)
  }
}
