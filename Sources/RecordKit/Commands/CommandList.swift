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
  private enum Storage: Sendable {
    case small([Command<Root>])
    case large(StepStore<Root>)
  }

  private var storage: Storage = .small([])

  /// How many commands a list holds as an array before it moves into a store.
  static var compactionThreshold: Int { 64 }

  public init() {}

  public init(_ commands: some Sequence<Command<Root>>) {
    for command in commands { append(command) }
  }

  /// Appends `command`. O(1) amortized; the list moves into a store once (O(threshold)).
  public mutating func append(_ command: Command<Root>) {
    switch storage {
    case .small(var commands):
      // Taken out of `storage` first, so that the array is not shared and grows in place.
      storage = .small([])
      commands.append(command)
      guard commands.count > Self.compactionThreshold else {
        storage = .small(commands)
        return
      }
      var store = StepStore<Root>(emptySlots: 0)
      for command in commands { store.append(command) }
      storage = .large(store)
    case .large(var store):
      storage = .small([])
      store.append(command)
      storage = .large(store)
    }
  }

  /// Appends a one-field edit that `write` makes straight into a row of the list's store
  /// (`History.recordRow`): `nil` when the list is still small (an array of commands) or
  /// `write` made no row, and then nothing changed; else the row appended, or `nil` inside
  /// for an edit that changed nothing. O(1) amortized.
  mutating func appendRow<Failure: Error>(_ write: (inout StepStore<Root>) throws(Failure) -> StepRowWrite)
    throws(Failure) -> (column: StepColumn<Root>, row: Int)??
  {
    guard case .large(var store) = storage else { return nil }
    // Taken out of `storage` first, so that the store is not shared and grows in place.
    storage = .small([])
    defer { storage = .large(store) }
    switch try store.write(write) {
    case .notRows: return nil
    case .unchanged: return .some(nil)
    case .appended:
      guard let row = store.lastRow else { preconditionFailure("a row was appended") }
      return .some(row)
    }
  }

  /// Applies every command in order (`Command.apply`).
  func apply(to document: inout Document<Root>) {
    switch storage {
    case .small(let commands):
      for command in commands { command.apply(to: &document) }
    case .large(let store):
      for index in 0..<store.count where !store.writeRow(index, forward: true, in: &document) {
        store[index]?.apply(to: &document)
      }
    }
  }

  /// Reverts every command, the last first (`Command.revert`).
  func revert(in document: inout Document<Root>) {
    switch storage {
    case .small(let commands):
      for command in commands.reversed() { command.revert(in: &document) }
    case .large(let store):
      for index in (0..<store.count).reversed() where !store.writeRow(index, forward: false, in: &document) {
        store[index]?.revert(in: &document)
      }
    }
  }

  /// The record the command at `index` edits when the list keeps it as a row (a one-field
  /// edit in a large list), read without making the edit; `nil` for any other command,
  /// which the subscript gives. O(1): what indexing a closed group's records needs for
  /// each of a million edits, where making each edit again cost an allocation and its
  /// retains.
  func rowRecord(at index: Int) -> RecordNumber? {
    switch storage {
    case .small: nil
    case .large(let store): store.rowRecord(index)
    }
  }

  /// Whether the list is a store (for tests).
  var isCompacted: Bool {
    if case .large = storage { true } else { false }
  }
}

extension CommandList: RandomAccessCollection {
  public var startIndex: Int { 0 }

  public var endIndex: Int {
    switch storage {
    case .small(let commands): commands.count
    case .large(let store): store.count
    }
  }

  /// The command at `index`; in a large list a row's edit is made again (one allocation).
  public subscript(index: Int) -> Command<Root> {
    switch storage {
    case .small(let commands):
      return commands[index]
    case .large(let store):
      // A list's store has no empty or dropped slot: every one it appended holds a command.
      guard let command = store[index] else { preconditionFailure("a CommandList's slot \(index) is empty") }
      return command
    }
  }
}

extension CommandList: ExpressibleByArrayLiteral {
  public init(arrayLiteral commands: Command<Root>...) {
    self.init(commands)
  }
}
