import Foundation
import Testing

@testable import RecordKit

/// The index from record number to history steps (`RecordStepIndex`) on its own, and
/// `History.steps(touching:)` checked against a trivial model in random sessions: a scan of
/// `pastSteps` for the steps whose `edits(of:)` is not empty.
@Suite struct RecordStepIndexTests {
  typealias Index = RecordStepIndex

  static func number(_ value: UInt32) -> RecordNumber { RecordNumber(value) }

  static func insert(_ number: UInt32) -> Command<TaskRecord> {
    .insert(TaskRecord(id: "r\(number)"), number: RecordNumber(number), at: 0)
  }

  static func delete(_ number: UInt32) -> Command<TaskRecord> {
    .delete(TaskRecord(id: "r\(number)"), number: RecordNumber(number), at: 0)
  }

  /// Every step the index finds for `number` above `floor`, all live and every wide one touching.
  static func found(_ index: Index, _ number: UInt32, above floor: Int = 0, wide: Bool = true) -> [Int] {
    index.steps(
      touching: RecordNumber(number), above: floor, isLive: { _ in true }, wideTouches: { _ in wide })
  }

  static func stored(_ command: Command<TaskRecord>) -> StoredCommand<TaskRecord> {
    var bytes: [UInt8] = []
    command.appendEncoded(to: &bytes)
    return StoredCommand(bytes: bytes)
  }

  // MARK: The index alone

  @Test func anEmptyIndexFindsNothing() {
    let index = Index()
    #expect(Self.found(index, 0) == [])
    #expect(Self.found(index, 1_000_000) == [])
    #expect(index.entries.isEmpty && index.wide.isEmpty && !index.hasPending && index.stepCount == 0)
  }

  @Test func oneRecordsStepsComeNewestFirst() {
    var index = Index()
    index.add(Self.insert(3), step: 1, decodingStored: false)
    index.add(Self.insert(1), step: 2, decodingStored: false)
    index.add(Self.delete(3), step: 5, decodingStored: false)
    #expect(Self.found(index, 3) == [5, 1])
    #expect(Self.found(index, 1) == [2])
    #expect(Self.found(index, 0) == [])
    #expect(Self.found(index, 4) == [])
    // Steps at or below the floor are not looked at; `isLive` filters the rest.
    #expect(Self.found(index, 3, above: 1) == [5])
    #expect(Self.found(index, 3, above: 5) == [])
    #expect(
      index.steps(touching: Self.number(3), above: 0, isLive: { $0 != 5 }, wideTouches: { _ in true }) == [1])
    #expect(index.heads == [-1, 1, -1, 2])
    #expect(index.entries.map(\.step) == [1, 2, 5])
    #expect(index.stepCount == 3)
  }

  @Test func aGroupTouchingARecordTwiceGivesItOneEntry() {
    var index = Index()
    index.add(
      .group(name: nil, [Self.insert(7), Self.delete(7), .group(name: "inner", [Self.insert(7)])]), step: 1,
      decodingStored: false)
    #expect(Array(index.entries) == [Index.Entry(step: 1, previous: -1)])
    #expect(Self.found(index, 7) == [1])
  }

  @Test func largeGroupsAndBulkCommandsAreWideSteps() {
    var index = Index()
    index.add(Self.insert(7), step: 1, decodingStored: false)
    // As many records as a narrow step may touch: one entry each.
    let limit = UInt32(Index.wideRecordLimit)
    index.add(
      .group(name: nil, CommandList((100..<100 + limit).map(Self.insert))), step: 2, decodingStored: false)
    #expect(index.entries.count == 1 + Index.wideRecordLimit)
    #expect(index.wide.isEmpty)
    // One more: its entries are taken back, and record 7's list is as it was.
    index.add(
      .group(name: nil, CommandList([Self.delete(7)] + (200..<200 + limit).map(Self.insert))), step: 3,
      decodingStored: false)
    #expect(index.entries.count == 1 + Index.wideRecordLimit)
    #expect(index.wide == [3])
    #expect(Self.found(index, 7, wide: false) == [1])
    #expect(Self.found(index, 200, wide: false) == [])
    // A group holding a bulk command is wide, however few records it names.
    let deletion = BulkDeletion<TaskRecord>(
      records: [TaskRecord(id: "a")], numbers: [Self.number(7)], positions: [0])
    index.add(.group(name: nil, [Self.insert(7), .deleteAll(deletion)]), step: 4, decodingStored: false)
    index.add(.deleteAll(deletion), step: 6, decodingStored: false)
    index.add(Self.delete(7), step: 8, decodingStored: false)
    #expect(index.wide == [3, 4, 6])
    #expect(Self.found(index, 7) == [8, 6, 4, 3, 1])
    #expect(
      index.steps(touching: Self.number(7), above: 0, isLive: { _ in true }, wideTouches: { $0 == 4 }) == [
        8, 4, 1,
      ])
    #expect(Self.found(index, 7, above: 4) == [8, 6])
    #expect(index.stepCount == 6)
  }

  /// A group past `CommandList.compactionThreshold` keeps its one-field edits as rows:
  /// the index reads their records from the rows and finds what the same edits as one
  /// `.edits` step give, goes wide past `wideRecordLimit` records, and still waits for a
  /// stored command among the rows.
  @Test func aCompactedGroupIsIndexedByItsRowsRecords() throws {
    let priority = try #require(StepStoreTests.priority)
    func edits(_ records: [UInt32]) -> [any FieldEdit<TaskRecord>] {
      records.enumerated().map { serial, number in
        PropertyUpdate(
          record: Self.number(number), field: priority, old: Int8(serial % 6), new: 9, action: .set)
      }
    }
    // 200 edits over 40 records: compacted, narrow.
    let narrow = edits((0..<200).map { UInt32($0 % 40) * 3 })
    let list = CommandList(narrow.map { Command<TaskRecord>.edit($0) })
    #expect(list.isCompacted)
    var byGroup = Index()
    var byEdits = Index()
    byGroup.add(.group(name: nil, list), step: 1, decodingStored: false)
    byEdits.add(.edits(narrow), step: 1, decodingStored: false)
    #expect(Array(byGroup.entries) == Array(byEdits.entries) && byGroup.heads == byEdits.heads)
    #expect(byGroup.wide.isEmpty && byGroup.entries.count == 40)
    #expect(Self.found(byGroup, 117) == [1] && Self.found(byGroup, 118) == [])
    // One record past the limit: wide, its entries taken back.
    let limit = UInt32(Index.wideRecordLimit)
    let wideRecords = Array(0..<limit + 1) + Array(repeating: 0, count: 100)
    let wide = CommandList(edits(wideRecords).map { Command<TaskRecord>.edit($0) })
    byGroup.add(.group(name: nil, wide), step: 2, decodingStored: false)
    #expect(byGroup.wide == [2] && byGroup.entries.count == 40)
    // A stored command among rows: the step waits, then is indexed with the rows' records.
    let stored = Self.stored(Self.delete(500))
    let mixed = CommandList(narrow.map { Command<TaskRecord>.edit($0) } + [.stored(stored)])
    byGroup.add(.group(name: nil, mixed), step: 3, decodingStored: false)
    #expect(byGroup.pending == [3] && !stored.isDecoded)
    var decoded = Index()
    decoded.add(.group(name: nil, mixed), step: 3, decodingStored: true)
    #expect(Self.found(decoded, 500) == [3] && Self.found(decoded, 117) == [3] && decoded.entries.count == 41)
  }

  @Test func storedStepsWaitUndecodedUntilAsked() {
    var index = Index()
    let alone = Self.stored(Self.insert(4))
    let inGroup = Self.stored(Self.delete(4))
    index.add(.stored(alone), step: 1, decodingStored: false)
    index.add(.group(name: "g", [Self.insert(9), .stored(inGroup)]), step: 2, decodingStored: false)
    #expect(index.pending == [1, 2])
    #expect(index.entries.isEmpty)
    #expect(!alone.isDecoded && !inGroup.isDecoded)
    // Decoding, they are indexed as their commands are.
    var decoded = Index()
    decoded.add(.stored(alone), step: 1, decodingStored: true)
    decoded.add(.group(name: "g", [Self.insert(9), .stored(inGroup)]), step: 2, decodingStored: true)
    decoded.add(
      Command.stored(StoredCommand<TaskRecord>(bytes: Array("not json".utf8))), step: 3, decodingStored: true)
    #expect(!decoded.hasPending && alone.isDecoded && inGroup.isDecoded)
    #expect(Self.found(decoded, 4) == [2, 1])
    #expect(Self.found(decoded, 9) == [2])
    #expect(decoded.wide.isEmpty && decoded.entries.count == 3)
    // Once decoded, a stored step is indexed at once.
    index.add(.stored(alone), step: 4, decodingStored: false)
    #expect(index.pending == [1, 2])
    #expect(Array(index.entries) == [Index.Entry(step: 4, previous: -1)] && index.heads[4] == 0)
  }

  @Test func numbersAreFoundByBinarySearchWhenAscending() {
    let numbers = [1, 4, 9, 12].map { Self.number($0) }
    #expect(RecordNumber.isAscending(numbers))
    #expect(!RecordNumber.isAscending([4, 1].map { Self.number($0) }))
    #expect(!RecordNumber.isAscending([4, 4].map { Self.number($0) }))
    #expect(RecordNumber.isAscending([]))
    for (index, number) in numbers.enumerated() {
      #expect(RecordNumber.index(of: number, in: numbers, ascending: true) == index)
    }
    for missing: UInt32 in [0, 2, 10, 13] {
      #expect(RecordNumber.index(of: Self.number(missing), in: numbers, ascending: true) == nil)
    }
    let unordered = [9, 1, 12].map { Self.number($0) }
    #expect(RecordNumber.index(of: Self.number(1), in: unordered, ascending: false) == 1)
  }

  /// A bulk edit over records whose numbers are out of file order (one made at the top)
  /// still says what it did to each.
  @Test func bulkEditsSayWhatTheyDidToEachRecordInAnyOrder() throws {
    var editor = Editor<TaskRecord>(document: try Document(records: (0..<5).map { TaskRecord(id: "r\($0)") }))
    let title = try editor.bulkField("title", createsCustom: false)
    try editor.bulkEdit([(title, .set(.word("a")))], at: [0, 2, 4])
    editor.perform(.insert(TaskRecord(id: "top"), number: editor.document.nextNumber, at: 0))
    try editor.bulkEdit([(title, .set(.word("b")))], at: [0, 1, 3])
    try editor.deleteRecords(at: [0, 2])
    let steps = editor.history.pastSteps
    guard case .bulk(let ascending, _) = steps[0].command, case .bulk(let unordered, _) = steps[2].command,
      case .deleteAll(let deletion) = steps[3].command
    else {
      Issue.record("unexpected steps")
      return
    }
    #expect(ascending[0].recordsAscending && !unordered[0].recordsAscending && !deletion.numbersAscending)
    #expect(unordered[0].records.map(\.value) == [5, 0, 2])
    for number: UInt32 in 0..<6 {
      let model = steps.reversed().filter { !$0.command.edits(of: Self.number(number)).isEmpty }.map(\.number)
      #expect(editor.steps(touching: Self.number(number)) == model, "record \(number)")
    }
    #expect(
      steps[2].command.edits(of: Self.number(5)) == [RecordEdit(field: "title", old: nil, new: .string("b"))])
    #expect(
      steps[0].command.edits(of: Self.number(4)) == [RecordEdit(field: "title", old: nil, new: .string("a"))])
    #expect(steps[0].command.edits(of: Self.number(3)) == [])
  }

  // MARK: In a history

  /// Steps read back from a log are not decoded when recorded; the first query decodes
  /// and indexes them, and finds what a scan finds.
  @Test func aHistoryIndexesItsStoredStepsOnFirstQuery() throws {
    var made = Editor<TaskRecord>(document: try Document(records: (0..<3).map { TaskRecord(id: "r\($0)") }))
    try made.set([FieldAssignment("title", .word("x"))], at: 1)
    try made.newRecord(id: "n", [])
    try made.set([FieldAssignment("title", .word("y")), FieldAssignment("done", .word("true"))], at: 1)
    var read = Editor<TaskRecord>(document: made.document)
    let stored = made.history.keptSteps.map { Self.stored($0.command) }
    for (step, command) in zip(made.history.keptSteps, stored) {
      read.restoreStep(.stored(command), number: step.number, at: step.time)
    }
    #expect(stored.allSatisfy { !$0.isDecoded })
    #expect(read.history.stepIndex.pending == [1, 2, 3])
    #expect(read.steps(touching: Self.number(1)) == [3, 1])
    #expect(stored.allSatisfy { $0.isDecoded })
    #expect(!read.history.stepIndex.hasPending)
    #expect(read.steps(touching: Self.number(3)) == [2])
    #expect(read.steps(touching: Self.number(0)) == [])
  }

  /// In a long session with a small limit, the index is rebuilt from the kept steps
  /// before stale entries outgrow the allowance, and still answers as a scan does.
  @Test func staleEntriesAreDroppedByRebuilds() throws {
    var editor = Editor<TaskRecord>(
      document: try Document(records: [TaskRecord(id: "a"), TaskRecord(id: "b")]))
    editor.history = History(limit: 3, indexStaleAllowance: 8)
    var largest = 0
    for round in 0..<2_000 {
      try editor.set([FieldAssignment("title", .word("t\(round)"))], at: round % 2)
      // Every other edit is undone, so the next one starts a branch beside it.
      if round % 3 == 1 { _ = try editor.undo() }
      largest = max(largest, editor.history.stepIndex.stepCount)
      #expect(editor.history.stepIndex.stepCount <= 3 * editor.history.keptCount + 8)
    }
    // 2,000 steps made, at most 3 kept: the index describes no more than 3 * 3 + 8.
    #expect(largest <= 3 * 3 + 8)
    #expect(editor.history.stepIndex.entries.count <= 3 * 3 + 8)
    for number: UInt32 in 0..<2 {
      let model = editor.history.pastSteps.reversed().filter {
        !$0.command.edits(of: Self.number(number)).isEmpty
      }
      #expect(editor.steps(touching: Self.number(number)) == model.map(\.number))
    }
    // A restart (a log compacted past its first steps) starts an empty index.
    var fresh = Editor<TaskRecord>()
    fresh.restoreStart(40)
    #expect(fresh.history.stepIndex.stepCount == 0)
    try fresh.newRecord(id: "z", [])
    #expect(fresh.steps(touching: Self.number(0)) == [41])
  }

  // MARK: Random sessions against the model

  static let sessionsPerRun = 1_500
  /// Records the sessions start with: more than a narrow group may touch.
  static let startingRecords = Index.wideRecordLimit + 6

  enum Op: CustomStringConvertible {
    case set(Int, String), setTwo(Int), new, newAtTop, delete(Int), bulk([Int]), deleteSome([Int])
    case group([Int]), begin, end, undo(Int), redo(Int), goto(Int), limit(Int), reload

    var description: String {
      switch self {
      case .set(let position, let value): "set(\(position), \(value))"
      case .setTwo(let position): "setTwo(\(position))"
      case .new: "new"
      case .newAtTop: "newAtTop"
      case .delete(let position): "delete(\(position))"
      case .bulk(let positions): "bulk(\(positions))"
      case .deleteSome(let positions): "deleteSome(\(positions))"
      case .group(let positions): "group(\(positions.count) edits)"
      case .begin: "begin"
      case .end: "end"
      case .undo(let count): "undo(\(count))"
      case .redo(let count): "redo(\(count))"
      case .goto(let state): "goto(\(state))"
      case .limit(let limit): "limit(\(limit))"
      case .reload: "reload"
      }
    }
  }

  @Test func randomSessionsMatchAScanOfThePastSteps() throws {
    // RECSH_MODEL_SEED=N replays a printed seed first.
    let replay = ProcessInfo.processInfo.environment["RECSH_MODEL_SEED"].flatMap { UInt64($0) }
    let base = replay ?? UInt64.random(in: 0...UInt64.max >> 1)
    for offset in 0..<UInt64(Self.sessionsPerRun) {
      let seed = base &+ offset
      var generator = SplitMix64(seed: seed)
      if let failure = try Self.runSession(using: &generator) {
        Issue.record("seed \(seed): \(failure)")
        return
      }
    }
  }

  /// One random session, checked after every op; the first disagreement, or `nil`.
  static func runSession(using g: inout SplitMix64) throws -> String? {
    let limit = [0, 2, 5, 12].pick(using: &g)
    var editor = Editor<TaskRecord>(
      document: try Document(records: (0..<startingRecords).map { TaskRecord(id: "r\($0)") }))
    editor.history = History(limit: limit, indexStaleAllowance: [0, 4, 4096].pick(using: &g))
    var made = 0
    var done: [String] = []
    for _ in 0..<(g.int(60) + 1) {
      let op = randomOp(editor, using: &g)
      done.append(op.description)
      perform(op, on: &editor, made: &made)
      // Whether the steps were queried before or not, the answer is the same.
      guard g.int(4) == 0 else { continue }
      if let failure = compare(&editor) { return "after [\(done.joined(separator: ", "))]: \(failure)" }
    }
    if let failure = compare(&editor) { return "after [\(done.joined(separator: ", "))]: \(failure)" }
    return nil
  }

  static func randomOp(_ editor: Editor<TaskRecord>, using g: inout SplitMix64) -> Op {
    let count = editor.document.count
    let position = count == 0 ? 0 : g.int(count)
    func positions(_ most: Int) -> [Int] {
      guard count > 0 else { return [] }
      return Array(Set((0..<(g.int(most) + 1)).map { _ in g.int(count) })).sorted()
    }
    switch g.int(100) {
    case 0..<30: return .set(position, ["a", "b", "c"].pick(using: &g))
    case 30..<35: return .setTwo(position)
    case 35..<40: return .new
    case 40..<43: return .newAtTop
    case 43..<47: return .delete(position)
    case 47..<52: return .bulk(positions(count))
    case 52..<54: return .deleteSome(positions(3))
    case 54..<60:
      // Up to every record (more than a narrow step may touch), some twice.
      return .group(Array(0..<g.int(count + 1)) + (0..<g.int(4)).map { _ in g.int(max(count, 1)) })
    case 60..<64: return .begin
    case 64..<69: return .end
    case 69..<80: return .undo(g.int(3) + 1)
    case 80..<86: return .redo(g.int(3) + 1)
    case 86..<92: return .goto(g.int(editor.history.nextNumber + 1))
    case 92..<95: return .limit([0, 1, 3, 8].pick(using: &g))
    default: return .reload
    }
  }

  /// Runs `op`; a refusal (nothing to undo, no such record) changes nothing, as the model
  /// does not care which ops succeed.
  static func perform(_ op: Op, on editor: inout Editor<TaskRecord>, made: inout Int) {
    func title(_ value: String, at position: Int) {
      _ = try? editor.set([FieldAssignment("title", .word(value))], at: position)
    }
    switch op {
    case .set(let position, let value): title(value, at: position)
    case .setTwo(let position):
      let priority = String(made % 6)
      made += 1
      _ = try? editor.set(
        [FieldAssignment("title", .word("t\(made)")), FieldAssignment("priority", .word(priority))],
        at: position)
    case .new:
      made += 1
      _ = try? editor.newRecord(id: "n\(made)", [])
    case .newAtTop:
      made += 1
      editor.perform(.insert(TaskRecord(id: "n\(made)"), number: editor.document.nextNumber, at: 0))
    case .delete(let position): _ = try? editor.deleteRecord(at: position)
    case .bulk(let positions):
      made += 1
      guard let field = try? editor.bulkField("title", createsCustom: false) else { return }
      _ = try? editor.bulkEdit([(field, .set(.word("bulk\(made)")))], at: positions)
    case .deleteSome(let positions): _ = try? editor.deleteRecords(at: positions)
    case .group(let positions):
      editor.begin(nil)
      for position in positions {
        made += 1
        title("g\(made)", at: position)
      }
      _ = try? editor.end()
    case .begin: editor.begin("g")
    case .end: _ = try? editor.end()
    case .undo(let count): _ = try? editor.undo(count)
    case .redo(let count): _ = try? editor.redo(count)
    case .goto(let state): _ = try? editor.goto(state)
    case .limit(let limit): editor.setUndoLimit(limit)
    case .reload:
      guard editor.openGroups.isEmpty else { return }
      editor = reloaded(editor)
    }
  }

  /// The editor as a later session reads it back from the log: every kept step stored,
  /// undecoded, in the same tree, at the same state.
  static func reloaded(_ editor: Editor<TaskRecord>) -> Editor<TaskRecord> {
    let history = editor.history
    var copy = Editor<TaskRecord>(document: editor.document)
    copy.history = History(limit: history.limit, indexStaleAllowance: history.stepIndex.staleAllowance)
    if history.start > 0 { copy.restoreStart(history.start) }
    for step in history.keptSteps {
      copy.restorePosition(step.parent)
      copy.restoreStep(.stored(stored(step.command)), number: step.number, at: step.time)
    }
    copy.place(at: history.current)
    copy.setUndoLimit(history.limit)
    return copy
  }

  /// `steps(touching:)` for every record number (and one past them) against the scan.
  static func compare(_ editor: inout Editor<TaskRecord>) -> String? {
    let past = editor.history.pastSteps.reversed()
    for value in 0...editor.document.nextNumber.value {
      let number = RecordNumber(value)
      let model = past.filter { !$0.command.edits(of: number).isEmpty }.map(\.number)
      let found = editor.steps(touching: number)
      if found != model { return "record \(value): index \(found), scan \(model)" }
    }
    return nil
  }
}
