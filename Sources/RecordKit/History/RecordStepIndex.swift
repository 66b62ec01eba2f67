/// Which history steps touched each record, by record number: what lets `log` and
/// `blame` read one record's steps instead of every step of the history.
///
/// Pure bookkeeping over step numbers, as `History` is over states: it does not know
/// which steps are still kept or on the path to the current state. `History` adds every
/// step it records, in increasing number, and filters what a query finds.
///
/// - **Narrow steps** (a field edit, a new or deleted record, a group touching at most
///   `wideRecordLimit` records): one entry per record touched. `heads[n]` is the
///   position in `entries` of record `n`'s newest entry (-1: none), and each entry names
///   its step and the same record's entry before it: a list per record, newest first, in
///   two flat arrays. Record numbers are dense small integers (`Document`), so `heads`
///   has about one slot per record ever made. Adding a step costs O(records it touches)
///   amortized (an array append each), and allocates nothing beyond the arrays' growth.
/// - **Wide steps** (`bulk`, `deleteAll`, a group touching more records): their numbers
///   in `wide`, once each, so a bulk edit of a million records adds one number, not a
///   million entries. A query checks each with `Command.edits(of:)`.
/// - **Pending steps** (`Command.stored`, a step read back from the log, or a group that
///   holds one, when not decoded yet): their numbers in `pending`, unindexed, because
///   indexing one decodes it and opening a file with a long history must not decode it.
///   `History` indexes them, in one pass over the kept steps, the first time it is
///   queried (`History.steps(touching:)`).
/// - **Stale entries.** A step that is dropped later (the limit, a dropped branch) keeps
///   its entries; queries filter them. `stepCount` says how many steps the arrays
///   describe, so `History` rebuilds them from the kept steps when most are stale
///   (`isMostlyStale(kept:)`). Step numbers only grow, never reused, so a stale entry can
///   never name a newer step.
struct RecordStepIndex: Sendable {
  /// One step that touched a record: the step's number and the position in `entries`
  /// of the record's entry before it (-1: none).
  struct Entry: Equatable, Sendable {
    var step: UInt32
    var previous: Int32
  }

  /// The most records a group may touch and still be a narrow step (one entry each).
  static let wideRecordLimit = 64

  /// `heads[n]`: the position in `entries` of record `n`'s newest entry; -1 for none.
  private(set) var heads: [Int32] = []
  /// Every narrow step's entries, in the order added (so step numbers never decrease).
  /// Positions are `Int32`: adding past 2^31 entries stops the program (the history
  /// would hold far more memory than that before).
  private(set) var entries = SegmentedArray<Entry>()
  /// The wide steps, increasing.
  private(set) var wide: [UInt32] = []
  /// The steps holding a command from the log that is not decoded yet, increasing.
  private(set) var pending: [UInt32] = []
  /// How many steps were added (narrow, wide and pending, counting steps that touched no
  /// record), stale ones too.
  private(set) var stepCount = 0
  /// How many stale steps past three times the kept ones `isMostlyStale` tolerates, so
  /// that a small history is not rebuilt every few steps.
  let staleAllowance: Int
  /// Scratch for a group being added: the records it has entries for so far (kept
  /// between groups, so that adding one does not allocate once it has grown).
  private var touched: [UInt32] = []

  /// An empty index; `staleAllowance` as the property says (tests make it small).
  init(staleAllowance: Int = 4096) {
    self.staleAllowance = max(0, staleAllowance)
  }

  /// Whether some step's command is waiting to be decoded and indexed.
  var hasPending: Bool { !pending.isEmpty }

  /// Forgets the pending steps (when none of them is kept any more). O(1).
  mutating func dropPending() {
    pending.removeAll()
  }

  /// Whether stale steps are more than twice the `kept` live ones (plus `staleAllowance`):
  /// the moment to rebuild. With rebuilds then, the arrays describe at most
  /// `3 * kept + staleAllowance` steps, and a rebuild (O(kept)) comes after at least
  /// `2 * kept + staleAllowance` added steps: O(1) amortized per step.
  func isMostlyStale(kept: Int) -> Bool {
    stepCount > 3 * kept + staleAllowance
  }

  // MARK: Adding

  /// Adds step `step`, which did `command`. Steps must be added in increasing number.
  /// A `stored` command (or a group holding one) that is not decoded yet goes to `pending`
  /// unless `decodingStored`, which decodes it (one that does not decode touches nothing).
  /// Costs O(records a narrow command touches); a wide one O(1) (a group: O(its commands)).
  mutating func add<Root: Record>(_ command: Command<Root>, step: Int, decodingStored: Bool) {
    stepCount += 1
    let step = UInt32(truncatingIfNeeded: step)
    switch command {
    case .edit(let edit):
      note(edit.record, step: step)
    case .insert(_, let number, _), .delete(_, let number, _):
      note(number, step: step)
    case .edits(let edits):
      for edit in edits { note(edit.record, step: step) }
    case .bulk, .deleteAll:
      wide.append(step)
    case .stored, .group:
      if !decodingStored && Self.holdsUndecoded(command) {
        pending.append(step)
      } else {
        addMany(command, step: step)
      }
    }
  }

  /// `add` for a step that is one edit of the record numbered `number` (a row: no command
  /// is made to say so). O(1) amortized.
  mutating func addEdit(of number: RecordNumber, step: Int) {
    stepCount += 1
    note(number, step: UInt32(truncatingIfNeeded: step))
  }

  /// Whether `command` is, or a group of it holds, a stored command not decoded yet.
  /// O(the group's commands).
  private static func holdsUndecoded<Root: Record>(_ command: Command<Root>) -> Bool {
    switch command {
    case .stored(let stored): !stored.isDecoded
    case .group(_, let commands):
      // A row is a one-field edit, never a stored command: only the others are asked (a
      // group of rows alone, at once).
      !commands.holdsOnlyRows
        && commands.indices.contains { commands.rowRecord(at: $0) == nil && holdsUndecoded(commands[$0]) }
    default: false
    }
  }

  /// Adds a command that may touch many records (a group, a decoded stored command): an
  /// entry per record while at most `wideRecordLimit`; past that, or when it holds a wide
  /// command, its entries are taken back and it is a wide step.
  private mutating func addMany<Root: Record>(_ command: Command<Root>, step: UInt32) {
    let mark = entries.count
    touched.removeAll(keepingCapacity: true)
    guard !collect(command, step: step) else { return }
    // Take back this step's entries, newest first: each head goes back to the entry before.
    for number in touched.reversed() {
      let slot = Int(number)
      heads[slot] = entries[Int(heads[slot])].previous
    }
    entries.removeLast(entries.count - mark)
    wide.append(step)
  }

  /// Notes every record `command` touches as touched by `step`, listing the new ones in
  /// `touched`; `false` as soon as the command is found wide.
  private mutating func collect<Root: Record>(_ command: Command<Root>, step: UInt32) -> Bool {
    func noted(_ number: RecordNumber) -> Bool {
      guard note(number, step: step) else { return true }
      touched.append(number.value)
      return touched.count <= Self.wideRecordLimit
    }
    switch command {
    case .edit(let edit):
      return noted(edit.record)
    case .insert(_, let number, _), .delete(_, let number, _):
      return noted(number)
    case .edits(let edits):
      for edit in edits where !noted(edit.record) { return false }
      return true
    case .bulk, .deleteAll:
      return false
    case .group(_, let commands):
      for index in commands.indices {
        if let record = commands.rowRecord(at: index) {
          guard noted(record) else { return false }
        } else if !collect(commands[index], step: step) {
          return false
        }
      }
      return true
    case .stored(let stored):
      // A step that does not decode touches nothing.
      guard let decoded = stored.command else { return true }
      return collect(decoded, step: step)
    }
  }

  /// Adds an entry for record `number` in step `step`, unless the record's newest entry
  /// is that step's already; whether it added one. O(1) amortized.
  @inline(__always)
  @discardableResult
  private mutating func note(_ number: RecordNumber, step: UInt32) -> Bool {
    let slot = Int(number.value)
    if slot >= heads.count { heads.append(contentsOf: repeatElement(-1, count: slot + 1 - heads.count)) }
    let head = heads[slot]
    if head >= 0 && entries[Int(head)].step == step { return false }
    heads[slot] = Int32(entries.count)
    entries.append(Entry(step: step, previous: head))
    return true
  }

  // MARK: Querying

  /// The steps numbered above `floor` that touched record `number`, newest first: those
  /// of its entries for which `isLive` holds, and the wide steps for which both `isLive`
  /// and `wideTouches` hold. Needs no pending steps (`History` indexes them first).
  /// Costs O(the record's entries above `floor` + wide steps above `floor`) calls of
  /// `isLive`, and a `wideTouches` call per live wide step: not the steps that touched
  /// other records.
  func steps(
    touching number: RecordNumber, above floor: Int, isLive: (Int) -> Bool, wideTouches: (Int) -> Bool
  ) -> [Int] {
    assert(pending.isEmpty, "pending steps are indexed before a query")
    var found: [Int] = []
    let slot = Int(number.value)
    var entry = slot < heads.count ? Int(heads[slot]) : -1
    var wideIndex = wide.count - 1
    // Both lists are newest first: merge them down to `floor`.
    while true {
      let narrow = entry >= 0 ? Int(entries[entry].step) : -1
      let broad = wideIndex >= 0 ? Int(wide[wideIndex]) : -1
      guard max(narrow, broad) > floor else { break }
      if narrow > broad {
        if isLive(narrow) { found.append(narrow) }
        entry = Int(entries[entry].previous)
      } else {
        if isLive(broad) && wideTouches(broad) { found.append(broad) }
        wideIndex -= 1
      }
    }
    return found
  }
}
