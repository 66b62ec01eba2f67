import Testing

@testable import RecordKit

/// The three-way merge by record and field: a table of cases, then random triples against
/// a trivial model.
@Suite struct RecordMergeTests {
  static func document(_ lines: String) throws -> Document<TaskRecord> {
    try RecordFile<TaskRecord>.decode(Array(lines.utf8), layout: .lines).document
  }

  /// The merged records as JSON Lines, and the conflicts as `key field: base → ours | theirs`.
  static func merge(_ base: String, _ ours: String, _ theirs: String) throws -> (String, [String]) {
    let merged = try RecordMerge(base: document(base), ours: document(ours), theirs: document(theirs))
    return (
      String(decoding: RecordFile<TaskRecord>.encode(merged.records, layout: .lines), as: UTF8.self),
      merged.conflicts.map { conflict in
        func text(_ value: JSONValue?) -> String { value.map(\.compactText) ?? "-" }
        return
          "\(conflict.key) \(conflict.field): \(text(conflict.base)) → \(text(conflict.ours)) | \(text(conflict.theirs))"
      }
    )
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var base: String
    var ours: String
    var theirs: String
    var merged: String
    var conflicts: [String] = []
    var testDescription: String { name }
  }

  static let a = #"{"id":"a","title":"one","priority":1}"#
  static let b = #"{"id":"b","title":"two"}"#
  static let c = #"{"id":"c","title":"three"}"#

  static func lines(_ records: String...) -> String { records.map { $0 + "\n" }.joined() }

  static let cases: [Case] = [
    Case(
      name: "a field changed on one side is taken", base: lines(a, b), ours: lines(a, b),
      theirs: lines(#"{"id":"a","title":"uno","priority":1}"#, b),
      merged: lines(#"{"id":"a","title":"uno","priority":1}"#, b)),
    Case(
      name: "different fields of one record on the two sides: both", base: lines(a),
      ours: lines(#"{"id":"a","title":"uno","priority":1}"#),
      theirs: lines(#"{"id":"a","title":"one","priority":5}"#),
      merged: lines(#"{"id":"a","title":"uno","priority":5}"#)),
    Case(
      name: "changed alike on both: once", base: lines(a, b), ours: lines(a, #"{"id":"b","title":"deux"}"#),
      theirs: lines(a, #"{"id":"b","title":"deux"}"#), merged: lines(a, #"{"id":"b","title":"deux"}"#)),
    Case(
      name: "changed differently: a conflict, ours kept", base: lines(a, b),
      ours: lines(a, #"{"id":"b","title":"dos"}"#), theirs: lines(a, #"{"id":"b","title":"deux"}"#),
      merged: lines(a, #"{"id":"b","title":"dos"}"#), conflicts: [#"b title: "two" → "dos" | "deux""#]),
    Case(
      name: "a field removed on one side, unchanged on the other: removed", base: lines(a),
      ours: lines(#"{"id":"a","title":"one"}"#), theirs: lines(a), merged: lines(#"{"id":"a","title":"one"}"#)
    ),
    Case(
      name: "a field removed on one side, changed on the other: a conflict", base: lines(a),
      ours: lines(#"{"id":"a","title":"one"}"#), theirs: lines(#"{"id":"a","title":"one","priority":2}"#),
      merged: lines(#"{"id":"a","title":"one"}"#), conflicts: ["a priority: 1 → - | 2"]),
    Case(
      name: "deleted on one side, unchanged on the other: deleted", base: lines(a, b, c), ours: lines(a, c),
      theirs: lines(a, b, c), merged: lines(a, c)),
    Case(
      name: "deleted by theirs, edited by ours: a conflict, ours' record kept", base: lines(a, b),
      ours: lines(a, #"{"id":"b","title":"dos"}"#), theirs: lines(a),
      merged: lines(a, #"{"id":"b","title":"dos"}"#),
      conflicts: [#"b *: {"id": "b", "title": "two"} → {"id": "b", "title": "dos"} | -"#]),
    Case(
      name: "deleted by ours, edited by theirs: a conflict, the record stays deleted", base: lines(a, b),
      ours: lines(a), theirs: lines(a, #"{"id":"b","title":"deux"}"#), merged: lines(a),
      conflicts: [#"b *: {"id": "b", "title": "two"} → - | {"id": "b", "title": "deux"}"#]),
    Case(
      name: "deleted on both: gone", base: lines(a, b), ours: lines(a), theirs: lines(a), merged: lines(a)),
    Case(
      name: "added on both with one key and one content: once", base: lines(a), ours: lines(a, b),
      theirs: lines(a, b), merged: lines(a, b)),
    Case(
      name: "added on both with one key, different contents: merged by field, a conflict where they differ",
      base: lines(a), ours: lines(a, #"{"id":"n","title":"new","priority":2}"#),
      theirs: lines(a, #"{"id":"n","title":"neu","done":true}"#),
      merged: lines(a, #"{"id":"n","title":"new","done":true,"priority":2}"#),
      conflicts: [#"n title: - → "new" | "neu""#]),
    Case(
      name: "added on each side: kept in place", base: lines(a, c), ours: lines(#"{"id":"o"}"#, a, c),
      theirs: lines(a, #"{"id":"t"}"#, c), merged: lines(#"{"id":"o"}"#, a, #"{"id":"t"}"#, c)),
    Case(
      name: "reordered by theirs, edited by ours: theirs' order, ours' edit", base: lines(a, b, c),
      ours: lines(a, #"{"id":"b","title":"dos"}"#, c), theirs: lines(c, b, a),
      merged: lines(c, #"{"id":"b","title":"dos"}"#, a)),
    Case(
      name: "reordered by both: ours' order", base: lines(a, b, c), ours: lines(b, a, c),
      theirs: lines(c, a, b), merged: lines(b, a, c)),
    Case(
      name: "nested members merge member by member", base: lines(#"{"id":"a","meta":{"x":1,"y":1}}"#),
      ours: lines(#"{"id":"a","meta":{"x":2,"y":1}}"#), theirs: lines(#"{"id":"a","meta":{"x":1,"y":3}}"#),
      merged: lines(#"{"id":"a","meta":{"x":2,"y":3}}"#)),
    Case(
      name: "a conflict inside a custom object is one of the whole member",
      base: lines(#"{"id":"a","meta":{"x":1,"y":1}}"#),
      ours: lines(#"{"id":"a","meta":{"x":2,"y":5}}"#), theirs: lines(#"{"id":"a","meta":{"x":3,"y":1}}"#),
      merged: lines(#"{"id":"a","meta":{"x":2,"y":5}}"#),
      conflicts: [#"a meta: {"x": 1, "y": 1} → {"x": 2, "y": 5} | {"x": 3, "y": 1}"#]),
    Case(
      name: "list elements added on both sides: all of them", base: lines(#"{"id":"a","tags":["x"]}"#),
      ours: lines(#"{"id":"a","tags":["x","y"]}"#), theirs: lines(#"{"id":"a","tags":["x","z"]}"#),
      merged: lines(#"{"id":"a","tags":["x","y","z"]}"#)),
    Case(
      name: "a list element removed on one side, one added on the other",
      base: lines(#"{"id":"a","tags":["x","y"]}"#),
      ours: lines(#"{"id":"a","tags":["y"]}"#), theirs: lines(#"{"id":"a","tags":["x","y","z"]}"#),
      merged: lines(#"{"id":"a","tags":["y","z"]}"#)),
    Case(
      name: "list elements replaced at different places: position by position",
      base: lines(#"{"id":"a","tags":["x","y"]}"#), ours: lines(#"{"id":"a","tags":["p","y"]}"#),
      theirs: lines(#"{"id":"a","tags":["x","q"]}"#), merged: lines(#"{"id":"a","tags":["p","q"]}"#)),
    Case(
      name: "one list element replaced differently: a conflict of the list",
      base: lines(#"{"id":"a","tags":["x","y"]}"#), ours: lines(#"{"id":"a","tags":["p","y"]}"#),
      theirs: lines(#"{"id":"a","tags":["q","y"]}"#), merged: lines(#"{"id":"a","tags":["p","y"]}"#),
      conflicts: [#"a tags: ["x", "y"] → ["p", "y"] | ["q", "y"]"#]),
    Case(
      name: "a key changed on one side is a deletion and an addition", base: lines(a, b),
      ours: lines(#"{"id":"a2","title":"one","priority":1}"#, b),
      theirs: lines(a, #"{"id":"b","title":"deux"}"#),
      merged: lines(#"{"id":"a2","title":"one","priority":1}"#, #"{"id":"b","title":"deux"}"#)),
    Case(
      name: "a key changed on one side while the other edits the record: a conflict of the old key",
      base: lines(a, b), ours: lines(#"{"id":"a2","title":"one","priority":1}"#, b),
      theirs: lines(#"{"id":"a","title":"uno","priority":1}"#, b),
      merged: lines(#"{"id":"a2","title":"one","priority":1}"#, b),
      conflicts: [
        #"a *: {"id": "a", "title": "one", "priority": 1} → - | {"id": "a", "title": "uno", "priority": 1}"#
      ]),
    Case(name: "all three empty", base: "", ours: "", theirs: "", merged: ""),
  ]

  @Test(arguments: cases)
  func mergeCase(_ item: Case) throws {
    let (merged, conflicts) = try Self.merge(item.base, item.ours, item.theirs)
    #expect(merged == item.merged)
    #expect(conflicts == item.conflicts)
  }

  @Test func aMergeThatTakesNothingOfTheirsIsOurs() throws {
    let ours = Self.lines(Self.a, #"{"id":"b","title":"dos"}"#)
    let same = try RecordMerge(
      base: Self.document(Self.lines(Self.a, Self.b)), ours: Self.document(ours),
      theirs: Self.document(Self.lines(Self.a, Self.b)))
    #expect(same.isOurs)
    let taken = try RecordMerge(
      base: Self.document(Self.lines(Self.a, Self.b)), ours: Self.document(ours),
      theirs: Self.document(Self.lines(Self.a, Self.b, Self.c)))
    #expect(!taken.isOurs)
  }

  @Test func aContactsNestedFieldConflictIsAtItsDeclaredPath() throws {
    func contacts(_ text: String) throws -> Document<ContactRecord> {
      try RecordFile<ContactRecord>.decode(Array(text.utf8), layout: .lines).document
    }
    let base = #"{"id":"p","name":"Ann","address":{"city":"Oslo","zip":"0150"}}"# + "\n"
    let ours = #"{"id":"p","name":"Ann","address":{"city":"Bergen","zip":"0150"}}"# + "\n"
    let theirs = #"{"id":"p","name":"Ann","address":{"city":"Trondheim","zip":"7010"}}"# + "\n"
    let merged = try RecordMerge(base: contacts(base), ours: contacts(ours), theirs: contacts(theirs))
    #expect(merged.conflicts.map(\.field) == ["address.city"])
    #expect(
      String(decoding: RecordFile<ContactRecord>.encode(merged.records, layout: .lines), as: UTF8.self)
        == #"{"id":"p","name":"Ann","address":{"city":"Bergen","zip":"7010"}}"# + "\n")
  }
}

/// Random triples against a model: records of a few string fields, the base edited into
/// ours and theirs by random changes (a field set or removed, a record deleted or added);
/// the merge must give the model's records (by key, in ours' order with theirs' additions)
/// and exactly the model's conflicts.
@Suite struct RecordMergeModelTests {
  typealias Fields = [(String, String)]
  typealias Records = [(key: String, fields: Fields)]

  static func text(_ records: Records) -> String {
    records.map { record in
      "{\"id\":\"\(record.key)\"" + record.fields.map { ",\"\($0.0)\":\"\($0.1)\"" }.joined() + "}\n"
    }.joined()
  }

  static func dictionary(_ fields: Fields?) -> [String: String]? {
    fields.map { Dictionary(uniqueKeysWithValues: $0) }
  }

  static func edited(_ base: Records, _ generator: inout SplitMix64, side: String, changes: Int) -> Records {
    var records = base
    let names = ["title", "f1", "f2", "f3"]
    let values = ["u", "v", "w"]
    for change in 0..<changes {
      let choice = Int(generator.next() % 10)
      if records.isEmpty || choice == 9 {
        records.insert(
          (key: "\(side)\(change)", fields: [("title", values[Int(generator.next() % 3)])]),
          at: Int(generator.next() % UInt64(records.count + 1)))
        continue
      }
      let index = Int(generator.next() % UInt64(records.count))
      if choice == 8 {
        records.remove(at: index)
        continue
      }
      let name = names[Int(generator.next() % 4)]
      if choice == 7 {
        records[index].fields.removeAll { $0.0 == name }
      } else if let at = records[index].fields.firstIndex(where: { $0.0 == name }) {
        records[index].fields[at].1 = values[Int(generator.next() % 3)]
      } else {
        records[index].fields.append((name, values[Int(generator.next() % 3)]))
      }
    }
    return records
  }

  /// The model: per record and per field, the rules of `RecordMerge` written plainly.
  static func model(_ base: Records, _ ours: Records, _ theirs: Records) -> (
    records: [String: [String: String]], order: [String], conflicts: Set<String>
  ) {
    // A record's fields in order, as the file holds them: a record is unchanged when they
    // are the same in the same order.
    func spelled(_ records: Records) -> [String: [String]] {
      Dictionary(uniqueKeysWithValues: records.map { ($0.key, $0.fields.map { "\($0.0)=\($0.1)" }) })
    }
    let (sb, so, st) = (spelled(base), spelled(ours), spelled(theirs))
    let b = Dictionary(uniqueKeysWithValues: base.map { ($0.key, dictionary($0.fields) ?? [:]) })
    let o = Dictionary(uniqueKeysWithValues: ours.map { ($0.key, dictionary($0.fields) ?? [:]) })
    let t = Dictionary(uniqueKeysWithValues: theirs.map { ($0.key, dictionary($0.fields) ?? [:]) })
    var records: [String: [String: String]] = [:]
    var conflicts: Set<String> = []
    for key in Set(b.keys).union(o.keys).union(t.keys) {
      let (bb, oo, tt) = (b[key], o[key], t[key])
      if so[key] == st[key] {
        if let oo { records[key] = oo }
      } else if so[key] == sb[key] {
        if let tt { records[key] = tt }
      } else if st[key] == sb[key] {
        if let oo { records[key] = oo }
      } else if oo == nil || tt == nil {
        conflicts.insert("\(key) *")
        if let oo { records[key] = oo }
      } else if let oo, let tt {
        var merged: [String: String] = [:]
        for name in Set(oo.keys).union(tt.keys).union(bb.map { Array($0.keys) } ?? []) {
          let (fb, fo, ft) = (bb?[name], oo[name], tt[name])
          let value: String?
          if fo == ft || ft == fb {
            value = fo
          } else if fo == fb {
            value = ft
          } else {
            conflicts.insert("\(key) \(name)")
            value = fo
          }
          if let value { merged[name] = value }
        }
        records[key] = merged
      }
    }
    // Ours' order, then theirs' additions after the record before them in theirs.
    var order = ours.map(\.key).filter { records[$0] != nil }
    var previous: String?
    var inserted: [String] = []
    for record in theirs {
      if o[record.key] != nil {
        if records[record.key] != nil { previous = record.key }
        continue
      }
      guard records[record.key] != nil else { continue }
      let at = previous.flatMap { p in order.firstIndex(of: p).map { $0 + 1 } } ?? 0
      order.insert(record.key, at: at)
      inserted.append(record.key)
      previous = record.key
    }
    return (records, order, conflicts)
  }

  @Test func randomTriplesMergeAsTheModelSays() throws {
    var generator = SplitMix64(seed: 0x4D45_5247)
    for run in 0..<1000 {
      let count = Int(generator.next() % 6)
      var base: Records = []
      for index in 0..<count {
        var fields: Fields = [("title", "t\(index)")]
        if generator.next() % 2 == 0 { fields.append(("f1", "v")) }
        base.append((key: "r\(index)", fields: fields))
      }
      let ours = Self.edited(base, &generator, side: "o", changes: Int(generator.next() % 4))
      let theirs = Self.edited(base, &generator, side: "t", changes: Int(generator.next() % 4))
      let document = { (records: Records) in
        try RecordFile<TaskRecord>.decode(Array(Self.text(records).utf8), layout: .lines).document
      }
      let merged = try RecordMerge(base: document(base), ours: document(ours), theirs: document(theirs))
      let expected = Self.model(base, ours, theirs)
      var got: [String: [String: String]] = [:]
      for record in merged.records {
        var fields: [String: String] = [:]
        for member in TaskRecord.fields.encode(record).members where member.key != "id" {
          if case .string(let text) = member.value { fields[member.key] = text }
        }
        got[record.id] = fields
      }
      let context = "run \(run): base \(Self.text(base)) ours \(Self.text(ours)) theirs \(Self.text(theirs))"
      #expect(got == expected.records, "\(context)")
      #expect(Set(merged.conflicts.map { "\($0.key) \($0.field)" }) == expected.conflicts, "\(context)")
      #expect(merged.records.map(\.id) == expected.order, "\(context)")
      if got != expected.records || merged.records.map(\.id) != expected.order { return }
      // A side that changed nothing gives the other side, exactly, with no conflict.
      let keepsOurs = try RecordMerge(base: document(base), ours: document(ours), theirs: document(base))
      #expect(keepsOurs.isOurs && keepsOurs.conflicts.isEmpty, "\(context)")
      #expect(keepsOurs.records == (try document(ours)).records, "\(context)")
      let takesTheirs = try RecordMerge(base: document(base), ours: document(base), theirs: document(theirs))
      #expect(
        takesTheirs.records == (try document(theirs)).records && takesTheirs.conflicts.isEmpty, "\(context)")
      // The conflicts do not depend on which side is ours.
      let swapped = try RecordMerge(base: document(base), ours: document(theirs), theirs: document(ours))
      #expect(
        Set(swapped.conflicts.map { "\($0.key) \($0.field)" }) == expected.conflicts, "\(context)")
    }
  }
}
