import Testing

@testable import RecordKit

/// A list of commands applied and reverted with its runs of inserts and deletes put into
/// the document at once (`PositionRun`), against the same commands applied one at a time:
/// random lists of runs long and short, rising and falling, broken by commands that do not
/// continue them, small (an array) and large (a store). Both ways give the same records,
/// numbers, lookups and change marks; reverting gives the start back.
@Suite struct PositionRunTests {
  static func start(_ count: Int) throws -> Document<TaskRecord> {
    var document = try Document(records: (0..<count).map { TaskRecord(id: "t\($0)") })
    document.markUnchanged()
    return document
  }

  /// Commands that are valid in order from `document`: runs of inserts (new ids, new
  /// numbers) at rising positions and of deletes at falling ones, of 1 to 80 commands,
  /// each position a random step of 1 to 3 from the last, now and then of none (an insert
  /// before the one just made, a delete of the record after the one just deleted: the run
  /// breaks there).
  static func commands(from document: Document<TaskRecord>, runs: Int, _ random: inout SplitMix64)
    -> [Command<TaskRecord>]
  {
    var model = document
    var commands: [Command<TaskRecord>] = []
    var fresh = 0
    for _ in 0..<runs {
      let length = 1 + Int(random.next() % 80)
      let inserting = model.count < 20 || random.next() % 2 == 0
      var position = Int(random.next() % UInt64(model.count + 1))
      for _ in 0..<length {
        let command: Command<TaskRecord>
        if inserting {
          position = min(position, model.count)
          let number = model.nextNumber
          command = .insert(TaskRecord(id: "n\(fresh)"), number: number, at: position)
          fresh += 1
          position += random.next() % 40 == 0 ? 0 : 1 + Int(random.next() % 3)
        } else {
          guard model.count > 0 else { break }
          position = min(max(position, 0), model.count - 1)
          command = .delete(model.records[position], number: model.number(at: position), at: position)
          position -= random.next() % 40 == 0 ? 0 : 1 + Int(random.next() % 3)
          if position < 0 { position = model.count - 2 }
        }
        #expect(command.isApplicable(to: model))
        command.apply(to: &model)
        commands.append(command)
      }
    }
    return commands
  }

  static func expectSame(_ a: Document<TaskRecord>, _ b: Document<TaskRecord>, _ comment: Comment) {
    #expect(a.records == b.records, comment)
    #expect((0..<a.count).map(a.number(at:)) == (0..<b.count).map(b.number(at:)), comment)
    #expect(a.nextNumber == b.nextNumber, comment)
    for position in 0..<a.count {
      let number = a.number(at: position)
      #expect(b.position(of: number) == position, comment)
      #expect(b.position(ofID: a.records[position].id) == position, comment)
      #expect(a.mayHaveChanged(number) == b.mayHaveChanged(number), comment)
    }
  }

  @Test(arguments: [(UInt64(1), 3), (2, 12), (3, 30), (4, 60), (5, 1)])
  func runsGoInAtOnceAsOneAtATime(seed: UInt64, runs: Int) throws {
    var random = SplitMix64(seed: seed)
    let start = try Self.start(300)
    let all = Self.commands(from: start, runs: runs, &random)
    // The whole list (a store when long), and its first 50 (an array).
    for commands in [all, Array(all.prefix(50))] {
      let list = CommandList(commands)
      var oneByOne = start
      for command in commands { command.apply(to: &oneByOne) }
      var atOnce = start
      list.apply(to: &atOnce)
      Self.expectSame(oneByOne, atOnce, "seed \(seed): \(commands.count) commands applied")
      for command in commands.reversed() { command.revert(in: &oneByOne) }
      list.revert(in: &atOnce)
      Self.expectSame(oneByOne, atOnce, "seed \(seed): \(commands.count) commands reverted")
      #expect(atOnce.records == start.records)
      #expect((0..<atOnce.count).map(atOnce.number(at:)) == (0..<start.count).map(start.number(at:)))
    }
  }

  /// `Command.isApplicable` and `isRevertible` asked of each command in turn, each
  /// against the document with the ones before it done: what a group's check was.
  static func oneByOne(_ commands: [Command<TaskRecord>], _ document: Document<TaskRecord>, forward: Bool)
    -> Bool
  {
    var scratch = document
    for command in forward ? commands : commands.reversed() {
      guard forward ? command.isApplicable(to: scratch) : command.isRevertible(in: scratch) else {
        return false
      }
      if forward { command.apply(to: &scratch) } else { command.revert(in: &scratch) }
    }
    return true
  }

  /// The list's checks, with runs checked at once, against the commands checked one at a
  /// time: on valid lists, and on lists with one command spoiled (an id or a number that
  /// is taken, a record that is not the one at its position, a position past the end).
  @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
  func runsAreCheckedAtOnceAsOneAtATime(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let start = try Self.start(200)
    var commands = Self.commands(from: start, runs: 12, &random)
    var after = start
    for command in commands { command.apply(to: &after) }
    #expect(CommandList(commands).isApplicable(to: start))
    #expect(CommandList(commands).isRevertible(in: after))
    var refused = 0
    for trial in 0..<60 {
      let index = Int(random.next() % UInt64(commands.count))
      let original = commands[index]
      switch (original, random.next() % 4) {
      case (.insert(_, let number, let position), 0):
        commands[index] = .insert(TaskRecord(id: "t\(random.next() % 200)"), number: number, at: position)
      case (.insert(let record, _, let position), 1):
        commands[index] = .insert(record, number: RecordNumber(UInt32(random.next() % 200)), at: position)
      case (.insert(let record, let number, _), _):
        commands[index] = .insert(record, number: number, at: 10_000)
      case (.delete(_, let number, let position), 0), (.delete(_, let number, let position), 1):
        commands[index] = .delete(TaskRecord(id: "t\(random.next() % 200)"), number: number, at: position)
      case (.delete(let record, _, let position), 2):
        commands[index] = .delete(record, number: RecordNumber(UInt32(random.next() % 400)), at: position)
      case (.delete(let record, let number, _), _):
        commands[index] = .delete(record, number: number, at: 10_000)
      default:
        continue
      }
      let applicable = Self.oneByOne(commands, start, forward: true)
      #expect(CommandList(commands).isApplicable(to: start) == applicable, "seed \(seed) trial \(trial)")
      #expect(
        CommandList(commands).isRevertible(in: after) == Self.oneByOne(commands, after, forward: false),
        "seed \(seed) trial \(trial)")
      if !applicable { refused += 1 }
      commands[index] = original
    }
    // A spoiled command is mostly refused, not always (a number or an id that happens to
    // be free, a record that happens to be the one there).
    #expect(refused > 20, "\(refused) of 60 refused")
  }

  @Test func aListCanHoldLongRunsInBothForms() throws {
    var random = SplitMix64(seed: 9)
    let start = try Self.start(300)
    let commands = Self.commands(from: start, runs: 30, &random)
    #expect(CommandList(commands).isCompacted)
    #expect(!CommandList(Array(commands.prefix(40))).isCompacted)
    // Some run is long enough to go in at once.
    var longest = 1
    var length = 1
    for (previous, next) in zip(commands, commands.dropFirst()) {
      switch (previous, next) {
      case (.insert(_, _, let a), .insert(_, _, let b)) where b > a,
        (.delete(_, _, let a), .delete(_, _, let b)) where b < a:
        length += 1
      default:
        length = 1
      }
      longest = max(longest, length)
    }
    #expect(longest >= PositionRun<TaskRecord>.batchLength)
  }
}
