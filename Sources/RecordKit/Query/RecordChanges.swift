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
    /// A record of both whose fields differ, by its id (the record itself is not kept: a
    /// diff of a million records would copy each), at `position` in the second.
    case changed(id: String, position: Int, [FieldChange])
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

  /// The difference between two states of one history: records matched by number.
  init(from old: Document<Root>, to new: Document<Root>) {
    self.init(old, new) { position in old.position(of: new.number(at: position)) }
  }

  /// A record of one state: its number, its position there, and itself.
  public struct Snapshot: Sendable {
    @usableFromInline var number: RecordNumber
    public var position: Int
    public var record: Root
  }

  /// The difference between two states, given only the records that may differ (every
  /// other record the same in both), each as its state holds it, both lists in ascending
  /// number order (as `Editor.compare` makes them): the same changes, in the same order,
  /// as the documents would give. O(n log n) in the records, which are copied only into
  /// the changes. Inlinable: cross-module optimization left this one unspecialized, and
  /// generic code run unspecialized for a kind cost twice the time (docs/PERFORMANCE.md).
  @inlinable
  public init(before: [Snapshot], after: [Snapshot]) {
    let pairs = Self.pairs(before, after)
    // The records of the second state by their place there, then the deleted ones by
    // their place in the first.
    var present: [(position: Int, pair: Int)] = []
    var deleted: [(position: Int, pair: Int)] = []
    for (index, pair) in pairs.enumerated() {
      if let later = pair.after {
        present.append((after[later].position, index))
      } else if let earlier = pair.before {
        deleted.append((before[earlier].position, index))
      }
    }
    present.sort { $0.position < $1.position }
    deleted.sort { $0.position < $1.position }
    var changes: [Change] = []
    before.withUnsafeBufferPointer { before in
      after.withUnsafeBufferPointer { after in
        for (position, index) in present {
          guard let later = pairs[index].after else { continue }
          guard let earlier = pairs[index].before else {
            changes.append(.added(after[later].record, position: position))
            continue
          }
          guard before[earlier].record != after[later].record else { continue }
          let fields = Self.fieldChanges(
            Root.fields.encode(before[earlier].record), Root.fields.encode(after[later].record), path: "")
          if !fields.isEmpty {
            changes.append(.changed(id: after[later].record.id, position: position, fields))
          }
        }
        for (position, index) in deleted {
          guard let earlier = pairs[index].before else { continue }
          changes.append(.deleted(before[earlier].record, position: position))
        }
      }
    }
    self.changes = changes
  }

  /// The difference between two files' documents, matched by key: a record of both whose
  /// key is the same is the same record, wherever it is; a kind without a key matches
  /// them by position. In the order of `new`, then the records only `old` has, as the
  /// states' difference is. One pass over `new` with a lookup in `old`'s id index, and
  /// one over `old`: O(records), no copy of a record that did not change.
  @inlinable
  public init(matchingKeysOf old: Document<Root>, _ new: Document<Root>) {
    let keyed = Root.fields.key != nil
    self.init(old, new) { position in
      keyed ? old.position(ofID: new.id(at: position)) : (position < old.count ? position : nil)
    }
  }

  /// The difference between two documents whose records `earlier` matches: the position
  /// in `old` of the record at a position of `new`, `nil` for a record `old` lacks. In the
  /// order of `new`, then the records only `old` has. One pass over each, records read in
  /// place; no copy of a record that did not change.
  @inlinable
  init(_ old: Document<Root>, _ new: Document<Root>, matching earlier: (Int) -> Int?) {
    var matched = [Bool](repeating: false, count: old.count)
    var changes: [Change] = []
    old.records.withUnsafeBufferPointer { before in
      new.records.withUnsafeBufferPointer { after in
        for position in after.indices {
          guard let previous = earlier(position) else {
            changes.append(.added(after[position], position: position))
            continue
          }
          matched[previous] = true
          guard before[previous] != after[position] else { continue }
          let fields = Self.fieldChanges(
            Root.fields.encode(before[previous]), Root.fields.encode(after[position]), path: "")
          if !fields.isEmpty { changes.append(.changed(id: after[position].id, position: position, fields)) }
        }
        for position in before.indices where !matched[position] {
          changes.append(.deleted(before[position], position: position))
        }
      }
    }
    self.changes = changes
  }

  /// The snapshots of two states paired by record number (both lists ascending by
  /// number): each record's index in `before` and in `after`, `nil` where its state does
  /// not hold it; in number order. O(n).
  @inlinable
  public static func pairs(_ before: [Snapshot], _ after: [Snapshot]) -> [(before: Int?, after: Int?)] {
    var result: [(before: Int?, after: Int?)] = []
    result.reserveCapacity(max(before.count, after.count))
    var (i, j) = (0, 0)
    while i < before.count || j < after.count {
      if j == after.count || (i < before.count && before[i].number < after[j].number) {
        result.append((i, nil))
        i += 1
      } else if i == before.count || after[j].number < before[i].number {
        result.append((nil, j))
        j += 1
      } else {
        result.append((i, j))
        i += 1
        j += 1
      }
    }
    return result
  }

  public var isEmpty: Bool { changes.isEmpty }

  /// The members of `old` and `new` that differ, nested objects member by member; in the
  /// order of `old`'s keys, then the keys only `new` has.
  public static func fieldChanges(_ old: JSONObject, _ new: JSONObject, path: String) -> [FieldChange] {
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
