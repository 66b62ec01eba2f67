/// The commands of a `begin`/`end` group, in order: what an open group gathers and what
/// `Command.group` holds.
///
/// A small list is an array of commands. Past `compactionThreshold` commands it moves into
/// a `StepStore`, as the history keeps its steps: a group of a million one-field edits
/// (`begin`, a script of `set`s, `end`) then holds a million rows of typed arrays, about
/// 30 bytes each for an integer field, not a million edit objects of 104 bytes. Reading
/// an element of a large list makes a row's edit again (one allocation); `apply(to:)`
/// and `revert(in:)` write rows without making them. Small lists stay arrays because a
/// store costs a dozen allocations of its own, too many for a group of three edits.
public struct CommandList<Root: Record>: Sendable {
  /// The commands while the list is small; empty once it moved into `store`.
  private var small: [Command<Root>] = []
  /// The commands once the list is large (`isLarge`); an empty store, which allocates
  /// nothing, before. Properties rather than an enum with a payload each: the store is
  /// changed in place, where taking an enum's payload out to change it and putting it
  /// back copied the store's references, a retain and a release each, on every edit of a
  /// long group.
  private var store = StepStore<Root>(emptySlots: 0)
  /// Whether the commands are in `store`.
  private var isLarge = false

  /// How many commands a list holds as an array before it moves into a store.
  static var compactionThreshold: Int { 64 }

  public init() {}

  public init(_ commands: some Sequence<Command<Root>>) {
    for command in commands { append(command) }
  }

  /// Appends `command`. O(1) amortized; the list moves into a store once (O(threshold)).
  public mutating func append(_ command: Command<Root>) {
    guard !isLarge else {
      store.append(command)
      return
    }
    small.append(command)
    guard small.count > Self.compactionThreshold else { return }
    var moved = StepStore<Root>(emptySlots: 0)
    for command in small { moved.append(command) }
    small = []
    store = moved
    isLarge = true
  }

  /// Appends a one-field edit that `write` makes straight into a row of the list's store
  /// (`History.recordRow`), and says what it did; `.notRows`, `write` not asked, while the
  /// list is still small (an array of commands). O(1) amortized.
  mutating func appendRow(_ write: (inout StepStore<Root>) throws(FieldError) -> StepRowWrite<Root>)
    throws(FieldError) -> StepRowWrite<Root>
  {
    guard isLarge else { return .notRows }
    return try write(&store)
  }

  /// Applies every command in order (`Command.apply`). A run of inserts at rising
  /// positions, or of deletes at falling ones (what a change made outside recsh becomes,
  /// `RecordDifference`), goes into the document at once (`PositionRun`): one at a time,
  /// each shifted every record after it, O(records) a command.
  func apply(to document: inout Document<Root>) {
    _ = walk(&document, forward: true, checking: false)
  }

  /// Reverts every command, the last first (`Command.revert`), runs of inserts and
  /// deletes at once as `apply(to:)` does.
  func revert(in document: inout Document<Root>) {
    _ = walk(&document, forward: false, checking: false)
  }

  /// Whether the commands can be applied in order to `document`, each as
  /// `Command.isApplicable` asks against the document with the ones before it applied;
  /// a run of inserts or deletes checked and applied at once (`PositionRun.admits`). Costs
  /// a copy of the document, and applying the commands to it.
  func isApplicable(to document: Document<Root>) -> Bool {
    var scratch = document
    return walk(&scratch, forward: true, checking: true)
  }

  /// Whether the commands can be reverted, the last first, from `document`, each as
  /// `Command.isRevertible` asks; runs at once, as `isApplicable(to:)`.
  func isRevertible(in document: Document<Root>) -> Bool {
    var scratch = document
    return walk(&scratch, forward: false, checking: true)
  }

  /// Applies (`forward`) or reverts, the last first, every command to `document`, a run of
  /// inserts or deletes at once (`PositionRun`). `checking`: each run and each other
  /// command is first asked whether it can go (`PositionRun.admits`, `isApplicable`,
  /// `isRevertible`), and the walk stops at the first that cannot, returning false with
  /// the document part-way; the last run is asked, not put in. A large list's row edits
  /// are written without an edit made of them, unless checking (the check asks the edit)
  /// or a run is pending (it goes in first).
  private func walk(_ document: inout Document<Root>, forward: Bool, checking: Bool) -> Bool {
    var run = PositionRun<Root>()
    for step in 0..<count {
      let index = forward ? step : count - 1 - step
      if !checking, isLarge, run.isEmpty, store.writeRow(index, forward: forward, in: &document) { continue }
      let command = self[index]
      if run.add(command, forward: forward) { continue }
      guard !checking || run.admits(document) else { return false }
      run.flush(into: &document)
      if run.add(command, forward: forward) { continue }
      if checking {
        guard forward ? command.isApplicable(to: document) : command.isRevertible(in: document) else {
          return false
        }
      }
      if forward { command.apply(to: &document) } else { command.revert(in: &document) }
    }
    if checking { return run.admits(document) }
    run.flush(into: &document)
    return true
  }

  /// The record the command at `index` edits when the list keeps it as a row (a one-field
  /// edit in a large list), read without making the edit; `nil` for any other command,
  /// which the subscript gives. O(1): what indexing a closed group's records needs for
  /// each of a million edits, where making each edit again cost an allocation and its
  /// retains.
  func rowRecord(at index: Int) -> RecordNumber? {
    isLarge ? store.rowRecord(index) : nil
  }

  /// Whether every command is a row (a large list of one-field edits only): then none is
  /// a stored command, nor a group. O(1).
  var holdsOnlyRows: Bool { isLarge && store.holdsOnlyRows }

  /// Whether the list is a store (for tests).
  var isCompacted: Bool { isLarge }
}

extension CommandList: RandomAccessCollection {
  public var startIndex: Int { 0 }

  public var endIndex: Int { isLarge ? store.count : small.count }

  /// The command at `index`; in a large list a row's edit is made again (one allocation).
  public subscript(index: Int) -> Command<Root> {
    guard isLarge else { return small[index] }
    // A list's store has no empty or dropped slot: every one it appended holds a command.
    guard let command = store[index] else { preconditionFailure("a CommandList's slot \(index) is empty") }
    return command
  }
}

extension CommandList: ExpressibleByArrayLiteral {
  public init(arrayLiteral commands: Command<Root>...) {
    self.init(commands)
  }
}

/// Inserts at rising positions, or deletes at falling ones, gathered from a list of
/// commands to go into a document at once: inserted one after another at rising positions,
/// each record ends where its command put it; deleted at falling positions, each delete's
/// position is the record's before any of them. So the run is `Document.insertAll` of the
/// records at their positions, or `Document.removeAll(at:)` of the positions: one pass and
/// one rebuild of the document's index, where each command alone shifted every record
/// after it. A run shorter than `batchLength` is applied a command at a time (a rebuild
/// costs some dozens of shifts).
struct PositionRun<Root: Record> {
  /// Whether the run inserts (else it deletes), once it holds a command.
  private var inserts = false
  private var records: [Root] = []
  private var numbers: [RecordNumber] = []
  private var positions: [Int] = []

  /// The shortest run that goes in at once.
  static var batchLength: Int { 32 }

  var isEmpty: Bool { positions.isEmpty }

  /// Adds what `command` does to a document, applied (`forward`) or reverted, when it is an
  /// insert or a delete that continues the run (or starts it); false, with nothing added,
  /// for anything else.
  mutating func add(_ command: Command<Root>, forward: Bool) -> Bool {
    let (inserting, record, number, position): (Bool, Root, RecordNumber, Int)
    switch command {
    case .insert(let inserted, let insertedNumber, let at):
      (inserting, record, number, position) = (forward, inserted, insertedNumber, at)
    case .delete(let deleted, let deletedNumber, let at):
      (inserting, record, number, position) = (!forward, deleted, deletedNumber, at)
    default: return false
    }
    if let last = positions.last {
      guard inserting == inserts, inserting ? position > last : position < last else { return false }
    }
    inserts = inserting
    records.append(record)
    numbers.append(number)
    positions.append(position)
    return true
  }

  /// Whether the run can go into `document` as its commands one at a time would be
  /// allowed to (`Command.isApplicable` of an insert or a delete, against the document
  /// with the run's commands before it done): each insert's position at most the count
  /// then, its id and number in neither the document nor the run before it; the first
  /// delete's position inside the document (the later ones fall below it) and each
  /// delete's record and number the ones at its position, which the deletes before it,
  /// all further on, did not move. O(the run), with a set of its ids and numbers.
  func admits(_ document: Document<Root>) -> Bool {
    guard let first = positions.first else { return true }
    guard inserts else {
      guard first < document.count else { return false }
      return positions.indices.allSatisfy { index in
        document.records[positions[index]] == records[index]
          && document.number(at: positions[index]) == numbers[index]
      }
    }
    var ids = Set<String>()
    var seen = Set<RecordNumber>()
    for index in positions.indices {
      guard positions[index] <= document.count + index, !document.contains(id: records[index].id),
        ids.insert(records[index].id).inserted, document.position(of: numbers[index]) == nil,
        seen.insert(numbers[index]).inserted
      else { return false }
    }
    return true
  }

  /// Applies the run to `document` and empties it.
  mutating func flush(into document: inout Document<Root>) {
    guard !positions.isEmpty else { return }
    defer { (records, numbers, positions) = ([], [], []) }
    if positions.count < Self.batchLength {
      for index in positions.indices {
        if inserts {
          document.insert(records[index], numbered: numbers[index], at: positions[index])
        } else {
          document.remove(at: positions[index])
        }
      }
    } else if inserts {
      document.insertAll(records, numbered: numbers, at: positions)
    } else {
      _ = document.removeAll(at: positions.reversed())
    }
  }
}
