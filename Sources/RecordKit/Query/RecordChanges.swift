/// The record-level difference between two documents of one history, for `diff`: the
/// records added, the records deleted, and each field that changed, `old → new`.
///
/// Records are matched by their numbers (`Document`), which every state of a history
/// shares, so a record whose key or place changed is still the same record. A changed
/// record's fields are compared as the file would hold them (`FieldTable.encode`); a
/// nested object is compared member by member, its paths joined with dots
/// (`address.city`). O(records) record comparisons, and O(fields) for each record that
/// differs.
public struct RecordChanges<Root: Record>: Sendable {
  public enum Change: Sendable {
    /// A record of the second document only, at `position` there.
    case added(Root, position: Int)
    /// A record of the first document only, at `position` there.
    case deleted(Root, position: Int)
    /// A record of both whose fields differ, at `position` in the second.
    case changed(Root, position: Int, [FieldChange])
  }

  /// One field of a changed record: its path and its values (`nil`: absent).
  public struct FieldChange: Equatable, Sendable {
    public var path: String
    public var old: JSONValue?
    public var new: JSONValue?

    public init(path: String, old: JSONValue?, new: JSONValue?) {
      self.path = path
      self.old = old
      self.new = new
    }
  }

  /// In the order of the second document, then the deleted records in the order of the
  /// first.
  public let changes: [Change]

  public init(from old: Document<Root>, to new: Document<Root>) {
    var changes: [Change] = []
    for (position, record) in new.records.enumerated() {
      guard let before = old.position(of: new.number(at: position)) else {
        changes.append(.added(record, position: position))
        continue
      }
      let previous = old.records[before]
      guard previous != record else { continue }
      let fields = Self.fieldChanges(Root.fields.encode(previous), Root.fields.encode(record), path: "")
      if !fields.isEmpty { changes.append(.changed(record, position: position, fields)) }
    }
    for (position, record) in old.records.enumerated() where new.position(of: old.number(at: position)) == nil
    {
      changes.append(.deleted(record, position: position))
    }
    self.changes = changes
  }

  /// A record of one state: its number, its position there, and itself.
  package struct Snapshot {
    package var number: RecordNumber
    package var position: Int
    package var record: Root
  }

  /// The difference between two states, given only the records that may differ (every
  /// other record the same in both), each as the state holds it, in any order: the same
  /// changes, in the same order, as the documents would give. O(n log n) in the records.
  package init(before: [Snapshot], after: [Snapshot]) {
    var earlier: [RecordNumber: Snapshot] = [:]
    earlier.reserveCapacity(before.count)
    for snapshot in before { earlier[snapshot.number] = snapshot }
    var changes: [Change] = []
    var kept = Set<RecordNumber>()
    for snapshot in after.sorted(by: { $0.position < $1.position }) {
      guard let previous = earlier[snapshot.number]?.record else {
        changes.append(.added(snapshot.record, position: snapshot.position))
        continue
      }
      kept.insert(snapshot.number)
      guard previous != snapshot.record else { continue }
      let fields = Self.fieldChanges(
        Root.fields.encode(previous), Root.fields.encode(snapshot.record), path: "")
      if !fields.isEmpty { changes.append(.changed(snapshot.record, position: snapshot.position, fields)) }
    }
    for snapshot in before.sorted(by: { $0.position < $1.position }) where !kept.contains(snapshot.number) {
      changes.append(.deleted(snapshot.record, position: snapshot.position))
    }
    self.changes = changes
  }

  public var isEmpty: Bool { changes.isEmpty }

  /// The members of `old` and `new` that differ, nested objects member by member; in the
  /// order of `old`'s keys, then the keys only `new` has.
  package static func fieldChanges(_ old: JSONObject, _ new: JSONObject, path: String) -> [FieldChange] {
    var result: [FieldChange] = []
    // The usual case, the same keys in the same order: member by member, no lookup by key.
    if old.members.count == new.members.count,
      zip(old.members, new.members).allSatisfy({ $0.key == $1.key })
    {
      for (before, after) in zip(old.members, new.members) {
        let name = path.isEmpty ? before.key : path + "." + before.key
        if case .object(let inner) = before.value, case .object(let innerNew) = after.value {
          result += fieldChanges(inner, innerNew, path: name)
        } else if before.value != after.value {
          result.append(FieldChange(path: name, old: before.value, new: after.value))
        }
      }
      return result
    }
    var keys = old.members.map(\.key)
    for member in new.members where old[member.key] == nil { keys.append(member.key) }
    for key in keys {
      let (before, after) = (old[key], new[key])
      let name = path.isEmpty ? key : path + "." + key
      if case .object(let inner)? = before, case .object(let innerNew)? = after {
        result += fieldChanges(inner, innerNew, path: name)
      } else if before != after {
        result.append(FieldChange(path: name, old: before, new: after))
      }
    }
    return result
  }
}

extension RecordChanges.FieldChange {
  /// For two lists: the elements only the new one has and those only the old one has
  /// (each as often as it is more there), in list order; `nil` when either is no list.
  public var listChange: (added: [JSONValue], removed: [JSONValue])? {
    guard case .array(let before) = old ?? .array([]), case .array(let after) = new ?? .array([]),
      old != nil || new != nil
    else { return nil }
    var remaining = before
    var added: [JSONValue] = []
    for element in after {
      if let index = remaining.firstIndex(of: element) {
        remaining.remove(at: index)
      } else {
        added.append(element)
      }
    }
    return (added, remaining)
  }
}
