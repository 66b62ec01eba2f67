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

  /// Applies every command in order (`Command.apply`).
  func apply(to document: inout Document<Root>) {
    guard isLarge else {
      for command in small { command.apply(to: &document) }
      return
    }
    for index in 0..<store.count where !store.writeRow(index, forward: true, in: &document) {
      store[index]?.apply(to: &document)
    }
  }

  /// Reverts every command, the last first (`Command.revert`).
  func revert(in document: inout Document<Root>) {
    guard isLarge else {
      for command in small.reversed() { command.revert(in: &document) }
      return
    }
    for index in (0..<store.count).reversed() where !store.writeRow(index, forward: false, in: &document) {
      store[index]?.revert(in: &document)
    }
  }

  /// The record the command at `index` edits when the list keeps it as a row (a one-field
  /// edit in a large list), read without making the edit; `nil` for any other command,
  /// which the subscript gives. O(1): what indexing a closed group's records needs for
  /// each of a million edits, where making each edit again cost an allocation and its
  /// retains.
  func rowRecord(at index: Int) -> RecordNumber? {
    isLarge ? store.rowRecord(index) : nil
  }

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
