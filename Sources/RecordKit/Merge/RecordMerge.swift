/// A three-way merge of three versions of one record file — the common ancestor (`base`)
/// and two descendants (`ours`, `theirs`) — by record and by field, for `recsh merge`, git's
/// merge driver.
///
/// Records are matched by key; a kind whose records have no key cannot be merged so
/// (`RecordMergeError.keyless`). For each record:
/// - changed on one side only: that side's record; changed alike on both: taken once;
/// - deleted on one side and unchanged on the other: deleted; deleted on both: deleted;
/// - deleted on one side and changed on the other: a conflict of the whole record (`*`);
///   ours' version stays (the record kept if ours kept it, gone if ours deleted it);
/// - added on one side: kept; added on both with one content: once; with different
///   contents: merged field by field as if the base held no such record;
/// - changed differently on both: merged field by field, as the file holds them
///   (`FieldTable.encode`): a member changed on one side only is taken; changed
///   differently on both is a conflict, and ours' value stays.
///
/// Nested objects merge member by member; a conflict is placed at a field `set` can name:
/// a declared field (`address.city`) or a top-level member, so a conflict inside a custom
/// object (`meta.source`) is one of the whole member (`meta`). Lists merge as lists:
/// when all three have one length, position by position (an element changed differently
/// on both sides is a conflict of the whole list); otherwise as collections of values —
/// what either side removed is removed, what either side added is added (once when both
/// added it), in ours' order with theirs' additions after. A key changed on one side is
/// a deletion and an addition.
///
/// Order: ours' order of the records, unless ours kept the base's order and theirs did not
/// (theirs reordered them): then theirs'. A record only the other side has goes after the
/// record before it there (at the start when none is). Both sides reordering differently
/// is no conflict: ours' order wins.
///
/// Cost: one pass over each file, each record found in the two others where the one after
/// the last found is (else by the id index): O(records), ids compared in place for files
/// that hold their records in one order; records compared typed, in place; only a record
/// changed on both sides is encoded.
public struct RecordMerge<Root: Record>: Sendable {
  /// The merged records, in order.
  public let records: [Root]
  /// The conflicts, in the order of the merged file (then those of records it lacks).
  public let conflicts: [MergeConflict]
  /// Whether the merged records are exactly ours, in ours' order: nothing of theirs was
  /// taken, so ours' file need not be written.
  public let isOurs: Bool

  public init(base: Document<Root>, ours: Document<Root>, theirs: Document<Root>) throws(RecordMergeError) {
    guard Root.fields.key != nil else { throw .keyless(kind: Root.kind) }
    var merger = Merger(base: base, ours: ours, theirs: theirs)
    try merger.run()
    records = merger.result
    conflicts = merger.conflicts
    isOurs = merger.isOurs && merger.result.count == ours.count
  }
}

/// A field (or record) changed differently on both sides.
public struct MergeConflict: Equatable, Hashable, Sendable {
  /// The record's key.
  public var key: String
  /// The field's path as `set` names it (`title`, `address.city`), or `*` for the
  /// whole record (deleted on one side, changed on the other).
  public var field: String
  /// The values of the three versions; `nil`: absent (for `*`, the record deleted).
  public var base: JSONValue?
  public var ours: JSONValue?
  public var theirs: JSONValue?

  public init(key: String, field: String, base: JSONValue?, ours: JSONValue?, theirs: JSONValue?) {
    self.key = key
    self.field = field
    self.base = base
    self.ours = ours
    self.theirs = theirs
  }

  /// The field of a whole-record conflict.
  public static let wholeRecord = "*"
}

/// Why three files cannot be merged by record.
public enum RecordMergeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The kind's records have no key to match them by.
  case keyless(kind: String)
  /// The fields merged into a record that does not load as the kind.
  case mergedRecord(key: String, RecordDecodingError)

  public var description: String {
    switch self {
    case .keyless:
      "the records have no key (no \"id\", nor another field unique to each), so they cannot be matched "
        + "across the three files; merge them by hand (git keeps its own conflict)"
    case .mergedRecord(let key, let error):
      "the merged record \"\(key)\" does not fit the kind: \(error)"
    }
  }
}

/// The state of one merge: the three documents, the records merged so far and their
/// conflicts.
private struct Merger<Root: Record> {
  let base: Document<Root>
  let ours: Document<Root>
  let theirs: Document<Root>
  var result: [Root] = []
  /// Whether every record of `result` so far is ours' record at the same position.
  var isOurs = true
  var conflicts: [MergeConflict] = []

  /// Where a merged record comes from: one of the two sides as it is (by position:
  /// nothing copied until the result is made), or made by merging fields.
  enum Source {
    case ours(Int)
    case theirs(Int)
    case merged(Root)
  }

  /// How a record came out: from a source, or deleted (`nil`), with its conflicts.
  typealias Outcome = (record: Source?, conflicts: [MergeConflict])

  init(base: Document<Root>, ours: Document<Root>, theirs: Document<Root>) {
    self.base = base
    self.ours = ours
    self.theirs = theirs
  }

  mutating func run() throws(RecordMergeError) {
    // The side whose order the merged file keeps, and the other one.
    let theirsLeads = !Self.reorders(ours, base) && Self.reorders(theirs, base)
    let (lead, other) = theirsLeads ? (theirs, ours) : (ours, theirs)
    // Records only `other` has that are kept, by the key of the record before them
    // there that the file holds ("" for the start), in `other`'s order.
    var placedAfter: [String: [(key: String, source: Source)]] = [:]
    var kept = [Bool](repeating: false, count: lead.count)
    var leading: [Outcome] = []
    leading.reserveCapacity(lead.count)
    var cursors = Cursors()
    for position in 0..<lead.count {
      let outcome = try merge(key: lead.id(at: position), &cursors)
      leading.append(outcome)
      kept[position] = outcome.record != nil
    }
    var previous = ""
    var otherConflicts: [MergeConflict] = []
    var inLead = Cursor()
    cursors = Cursors()
    for position in 0..<other.count {
      let key = other.id(at: position)
      if let found = inLead.find(key, in: lead) {
        if kept[found] { previous = key }
        continue
      }
      let outcome = try merge(key: key, &cursors)
      otherConflicts += outcome.conflicts
      guard let source = outcome.record else { continue }
      placedAfter[previous, default: []].append((key, source))
      previous = key
    }
    result.reserveCapacity(lead.count + placedAfter.count)
    emit(after: "", &placedAfter)
    for (position, outcome) in leading.enumerated() {
      conflicts += outcome.conflicts
      guard let source = outcome.record else { continue }
      append(source)
      if !placedAfter.isEmpty { emit(after: lead.id(at: position), &placedAfter) }
    }
    // (A record of the base that neither side holds was deleted by both: gone.)
    conflicts += otherConflicts
  }

  /// Appends the records placed after `key`, and after each of them those placed after
  /// it, recursively.
  private mutating func emit(
    after key: String, _ placedAfter: inout [String: [(key: String, source: Source)]]
  ) {
    guard let records = placedAfter.removeValue(forKey: key) else { return }
    for record in records {
      append(record.source)
      emit(after: record.key, &placedAfter)
    }
  }

  /// Appends the record `source` names to the result.
  private mutating func append(_ source: Source) {
    switch source {
    case .ours(let position):
      isOurs = isOurs && position == result.count
      result.append(ours.records[position])
    case .theirs(let position):
      isOurs = false
      result.append(theirs.records[position])
    case .merged(let record):
      isOurs = false
      result.append(record)
    }
  }

  /// Finds records by key in one document, in the order they were asked for: where the
  /// record after the last one found is, when that is the one asked for (the files of a
  /// merge mostly hold the same records in the same order), else by the id index. So a
  /// merge of three like files compares ids in place instead of hashing them.
  struct Cursor {
    var next = 0

    mutating func find(_ key: String, in document: Document<Root>) -> Int? {
      let found: Int?
      if next < document.count, document.id(at: next) == key {
        found = next
      } else {
        found = document.position(ofID: key)
      }
      if let found { next = found + 1 }
      return found
    }
  }

  /// A cursor in each of the three documents.
  struct Cursors {
    var base = Cursor()
    var ours = Cursor()
    var theirs = Cursor()
  }

  /// Whether `side` holds the records it shares with `base` in another order than `base`.
  private static func reorders(_ side: Document<Root>, _ base: Document<Root>) -> Bool {
    var last = -1
    var cursor = Cursor()
    for position in 0..<side.count {
      guard let earlier = cursor.find(side.id(at: position), in: base) else { continue }
      if earlier < last { return true }
      last = earlier
    }
    return false
  }

  /// The record with `key` merged from the three documents.
  private func merge(key: String, _ cursors: inout Cursors) throws(RecordMergeError) -> Outcome {
    let b = cursors.base.find(key, in: base)
    let o = cursors.ours.find(key, in: ours)
    let t = cursors.theirs.find(key, in: theirs)
    switch (b, o, t) {
    case (_, nil, nil): return (nil, [])
    case (nil, let o?, nil): return (.ours(o), [])
    case (nil, nil, let t?): return (.theirs(t), [])
    case (nil, let o?, let t?):
      if Self.same(ours, o, theirs, t) { return (.ours(o), []) }
      return try mergeFields(key: key, base: nil, ours: ours.records[o], theirs: theirs.records[t])
    case (let b?, nil, let t?):
      if Self.same(base, b, theirs, t) { return (nil, []) }
      return (nil, [wholeRecordConflict(key, base: b, ours: nil, theirs: t)])
    case (let b?, let o?, nil):
      if Self.same(base, b, ours, o) { return (nil, []) }
      return (.ours(o), [wholeRecordConflict(key, base: b, ours: o, theirs: nil)])
    case (let b?, let o?, let t?):
      // Alike on both sides (unchanged, mostly) is one comparison.
      if Self.same(ours, o, theirs, t) { return (.ours(o), []) }
      if Self.same(base, b, ours, o) { return (.theirs(t), []) }
      if Self.same(base, b, theirs, t) { return (.ours(o), []) }
      return try mergeFields(
        key: key, base: base.records[b], ours: ours.records[o], theirs: theirs.records[t])
    }
  }

  /// Whether the record at `i` in `a` equals the one at `j` in `b`, compared in place.
  private static func same(_ a: Document<Root>, _ i: Int, _ b: Document<Root>, _ j: Int) -> Bool {
    a.records.withUnsafeBufferPointer { a in b.records.withUnsafeBufferPointer { b in a[i] == b[j] } }
  }

  private func wholeRecordConflict(_ key: String, base b: Int, ours o: Int?, theirs t: Int?)
    -> MergeConflict
  {
    let table = Root.fields
    return MergeConflict(
      key: key, field: MergeConflict.wholeRecord, base: .object(table.encode(base.records[b])),
      ours: o.map { .object(table.encode(ours.records[$0])) },
      theirs: t.map { .object(table.encode(theirs.records[$0])) })
  }

  /// Two versions changed differently (or added with different contents): merged member
  /// by member as the file holds them, and loaded back as a record.
  private func mergeFields(key: String, base: Root?, ours: Root, theirs: Root) throws(RecordMergeError)
    -> Outcome
  {
    let table = Root.fields
    var found: [MergeConflict] = []
    let merged = ValueMerge<Root>(key: key).objects(
      path: "", base: base.map(table.encode), ours: table.encode(ours), theirs: table.encode(theirs),
      conflicts: &found)
    do {
      return (.merged(try table.decode(merged)), found)
    } catch {
      throw .mergedRecord(key: key, error)
    }
  }
}

/// The member-by-member merge of one record's three objects.
private struct ValueMerge<Root: Record> {
  let key: String

  /// A conflict can be settled at `path` when `set` can name it: a top-level member, or
  /// a field the kind declares.
  private func isSettable(_ path: String) -> Bool {
    !path.contains(".") || Root.fields.field(named: path) != nil
  }

  private func joined(_ path: String, _ member: String) -> String {
    path.isEmpty ? member : path + "." + member
  }

  /// The members of `ours`, then those only `theirs` has, each merged; members both
  /// sides dropped are gone.
  func objects(
    path: String, base: JSONObject?, ours: JSONObject, theirs: JSONObject,
    conflicts: inout [MergeConflict]
  ) -> JSONObject {
    var merged = JSONObject()
    var keys = ours.members.map(\.key)
    for member in theirs.members where ours[member.key] == nil { keys.append(member.key) }
    for name in keys {
      if let value = self.value(
        path: joined(path, name), base: base?[name], ours: ours[name], theirs: theirs[name],
        conflicts: &conflicts)
      {
        merged.members.append(JSONObject.Member(key: name, value: value))
      }
    }
    return merged
  }

  /// One member's value (`nil`: absent) from its three versions.
  func value(
    path: String, base: JSONValue?, ours: JSONValue?, theirs: JSONValue?,
    conflicts: inout [MergeConflict]
  ) -> JSONValue? {
    if ours == theirs || theirs == base { return ours }
    if ours == base { return theirs }
    var inner: [MergeConflict] = []
    let merged: JSONValue?
    switch (base, ours, theirs) {
    case (nil, .object(let o)?, .object(let t)?), (.object?, .object(let o)?, .object(let t)?):
      var b: JSONObject?
      if case .object(let object)? = base { b = object }
      merged = .object(objects(path: path, base: b, ours: o, theirs: t, conflicts: &inner))
    case (nil, .array(let o)?, .array(let t)?), (.array?, .array(let o)?, .array(let t)?):
      var b: [JSONValue]?
      if case .array(let list)? = base { b = list }
      merged = lists(path: path, base: b, ours: o, theirs: t, conflicts: &inner)
    default:
      conflicts.append(MergeConflict(key: key, field: path, base: base, ours: ours, theirs: theirs))
      return ours
    }
    // A conflict that `set` cannot name is one of the nearest member it can.
    if isSettable(path), inner.contains(where: { !isSettable($0.field) }) {
      conflicts.append(MergeConflict(key: key, field: path, base: base, ours: ours, theirs: theirs))
      return ours
    }
    conflicts += inner
    return merged
  }

  /// A list from its three versions: position by position when all three have one
  /// length (an element changed differently on both sides makes the whole list a
  /// conflict, ours kept), else as collections of values (`RecordMerge`).
  func lists(
    path: String, base: [JSONValue]?, ours: [JSONValue], theirs: [JSONValue],
    conflicts: inout [MergeConflict]
  ) -> JSONValue {
    let conflict = MergeConflict(
      key: key, field: path, base: base.map { .array($0) }, ours: .array(ours), theirs: .array(theirs))
    if let base, base.count == ours.count, ours.count == theirs.count {
      var merged: [JSONValue] = []
      var inner: [MergeConflict] = []
      for index in base.indices {
        let element = value(
          path: path + "." + String(index), base: base[index], ours: ours[index], theirs: theirs[index],
          conflicts: &inner)
        guard inner.isEmpty, let element else {
          conflicts.append(conflict)
          return .array(ours)
        }
        merged.append(element)
      }
      return .array(merged)
    }
    let before = base ?? []
    var removedByTheirs = Self.counts(before)
    var addedByOurs = Self.counts(ours)
    for element in theirs { removedByTheirs[element, default: 0] -= 1 }
    for element in before { addedByOurs[element, default: 0] -= 1 }
    var addedByTheirs = Self.counts(theirs)
    for element in before { addedByTheirs[element, default: 0] -= 1 }
    var merged: [JSONValue] = []
    for element in ours {
      if let count = removedByTheirs[element], count > 0 {
        removedByTheirs[element] = count - 1
        continue
      }
      merged.append(element)
    }
    for element in theirs {
      guard let count = addedByTheirs[element], count > 0 else { continue }
      addedByTheirs[element] = count - 1
      // Added by both: ours' copy is there already.
      if let alsoOurs = addedByOurs[element], alsoOurs > 0 {
        addedByOurs[element] = alsoOurs - 1
        continue
      }
      merged.append(element)
    }
    return .array(merged)
  }

  private static func counts(_ values: [JSONValue]) -> [JSONValue: Int] {
    var counts: [JSONValue: Int] = [:]
    for value in values { counts[value, default: 0] += 1 }
    return counts
  }
}
