import Foundation
import Testing

@testable import RecordKit

/// A save writes a record whose declared fields changed in place (`FileImage.changesInPlace`
/// and `ValuePatch.writeMembers`) exactly as the patch of its two whole values would
/// (`ValuePatch.write`, which the layout tests pin down), over random records in random
/// spellings (member order, separators, escapes, absent fields, nulls, custom members) and
/// random edits of every field, custom members included, and a run-time kind's members.
@Suite struct FieldPatchTests {
  /// One random record object's text, in a random spelling.
  static func recordText(_ random: inout SplitMix64) -> String {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    var members: [String] = [#""id": "r1""#]
    if random.next() % 4 != 0 {
      members.append(#""title": "# + pick([#""Call Ann""#, #""caf\u00e9""#, #""a\"b""#]))
    }
    if random.next() % 3 == 0 { members.append(#""detail": "# + pick([#""x""#, #""""#, #""line\nnext""#])) }
    if random.next() % 3 != 0 { members.append(#""done": "# + pick(["true", "false"])) }
    if random.next() % 3 != 0 { members.append(#""priority": "# + pick(["0", "3", "5"])) }
    if random.next() % 3 != 0 {
      members.append(#""tags": "# + pick(["[]", #"["a", "b"]"#, #"["x"]"#, "[\n  \"p\",\n  \"q\"\n]"]))
    }
    if random.next() % 3 == 0 { members.append(#""due": "# + pick(["null", #""2026-12-01""#])) }
    if random.next() % 3 == 0 { members.append(#""color": "# + pick([#""red""#, "1.50", #"{"k": [1]}"#])) }
    members.shuffle(using: &random)
    let separator = pick([", ", ",", ",\n    ", " ,\n\t"])
    let keySeparator = pick([": ", ":", " : "])
    let body = members.map { $0.replacingFirst(": ", with: keySeparator) }.joined(separator: separator)
    return separator.contains("\n") ? "{\n    " + body + "\n  }" : "{" + body + "}"
  }

  /// `record` with random fields changed: set to new values or to what they were, unset,
  /// a list grown, shrunk or changed, a custom member set or removed.
  static func edit(_ record: inout TaskRecord, _ random: inout SplitMix64) {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    for _ in 0...(random.next() % 3) {
      switch random.next() % 8 {
      case 0: record.title = pick(["Call Ann", "café", nil, "new title"])
      case 1: record.detail = pick(["x", nil, "other"])
      case 2: record.done = pick([true, false, nil])
      case 3: record.priority = pick([0, 3, 5, nil])
      case 4: record.tags = pick([[], ["a", "b"], ["a"], ["a", "b", "c"], ["x", "b"], nil])
      case 5:
        record.due = pick([
          .null, nil, ISODate("2026-12-01").map(Nullable.value), ISODate("2027-01-02").map(Nullable.value),
        ])
      case 6: record.custom["color"] = pick([.string("red"), .string("blue"), nil])
      default: continue
      }
    }
  }

  /// What the patch of the two whole values writes for `record` over `original`, the
  /// object `span` of `buffer` (the reference the patches of members are held to).
  static func wholeValuePatch<Root: Record>(
    _ buffer: UnsafeBufferPointer<UInt8>, _ span: JSONSpan, from original: Root, to record: Root
  ) -> [UInt8] {
    var whole: [UInt8] = []
    ValuePatch(bytes: buffer, style: .lines).write(
      span, old: .object(Root.fields.encode(original)), new: .object(Root.fields.encode(record)), indent: [],
      multiline: buffer[span.range].contains(0x0A), into: &whole)
    return whole
  }

  /// Whether `record`'s edit of `original` (the object `text`, alone in an array) took the
  /// path of changes in place; if it did, what that path wrote is what the whole-value
  /// patch writes, and is JSON.
  static func patchesAgree<Root: Record>(_ text: String, from original: Root, to record: Root) throws -> Bool
  {
    let bytes = Array(("[" + text + "]").utf8)
    let table = Root.fields
    let multiline = text.contains("\n")
    return try bytes.withUnsafeBufferPointer { buffer in
      let span = JSONSpan.scan(buffer, at: 1)
      let patch = ValuePatch(bytes: buffer, style: .lines)
      let whole = wholeValuePatch(buffer, span, from: original, to: record)
      guard let changes = FileImage.changesInPlace(from: original, to: record, over: span) else {
        return false
      }
      var members: [UInt8] = []
      patch.writeMembers(span, changes: changes, indent: [], multiline: multiline, into: &members)
      #expect(
        String(decoding: members, as: UTF8.self) == String(decoding: whole, as: UTF8.self),
        "\(text) edited to \(table.encode(record))")
      _ = try #require(try? JSONValue.parse(bytes: members), "valid JSON")
      return true
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func changesInPlaceWriteWhatTheWholeValuePatchWrites(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var inPlace = 0
    let cases = 2_000
    for _ in 0..<cases {
      try Self.withRandomTaskEdit(&random) { text, original, record in
        if try Self.patchesAgree(text, from: original, to: record) { inPlace += 1 }
      }
    }
    // Most edits change values in place; the rest (a field added or removed, a custom
    // member changed) take the whole-value patch.
    #expect(inPlace > cases / 4, "\(inPlace) of \(cases) in place")
  }

  /// A random task record (`recordText`; with `unevenSeparators`, each `, ` between
  /// members and list elements spelled one of three ways, so that which separator a new
  /// member takes shows) and a random edit of it (`edit`). `body` is given the text, the
  /// record as read and the record edited.
  static func withRandomTaskEdit(
    _ random: inout SplitMix64, unevenSeparators: Bool = false,
    _ body: (String, TaskRecord, TaskRecord) throws -> Void
  ) throws {
    var text = recordText(&random)
    if unevenSeparators {
      let pieces = text.components(separatedBy: ", ")
      text = pieces[0]
      for piece in pieces.dropFirst() {
        text += [", ", ",  ", ","][Int(random.next() % 3)] + piece
      }
    }
    let bytes = Array(("[" + text + "]").utf8)
    let original = try #require(RecordFile<TaskRecord>.decode(bytes).document.records.first, "\(text)")
    var record = original
    edit(&record, &random)
    try body(text, original, record)
  }

  /// A random run-time record (`recordText`, its kind inferred) and a random edit of it:
  /// members set to values of every JSON kind, removed, one added. `body` runs with the
  /// kind current, given the text, the record as read and the record edited.
  static func withRandomRunTimeEdit(
    _ random: inout SplitMix64, _ body: (String, RunTimeRecord, RunTimeRecord) throws -> Void
  ) throws {
    let text = recordText(&random)
    let bytes = Array(("[" + text + "]").utf8)
    let loaded = try bytes.withUnsafeBufferPointer {
      try RunTimeFile.decode($0, layout: .array, schema: nil, name: "things")
    }
    try RunTimeKind.$current.withValue(loaded.kind) {
      let original = try #require(loaded.document.records.first)
      var record = original
      let keys = record.custom.keys
      func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
      for _ in 0...(random.next() % 3) {
        let values: [JSONValue] = [
          .string("z"), .string("caf\u{e9}\n"), .string("a\"b"), .number("7"), .number("1.50"), .bool(true),
          .null, .array([]), .array([.string("q")]), .object(JSONObject(["k": .array([])])),
        ]
        switch random.next() % 6 {
        case 0: record.custom["extra"] = pick(values)
        case 1: record.custom[pick(keys)] = nil
        default: record.custom[pick(keys)] = pick(values)
        }
      }
      try body(text, original, record)
    }
  }

  /// A run-time kind's record: all its members are custom, compared text against text.
  @Test(arguments: [4, 5] as [UInt64])
  func aRunTimeRecordsChangesInPlaceWriteWhatTheWholeValuePatchWrites(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var inPlace = 0
    let cases = 1_000
    for _ in 0..<cases {
      try Self.withRandomRunTimeEdit(&random) { text, original, record in
        if try Self.patchesAgree(text, from: original, to: record) { inPlace += 1 }
      }
    }
    #expect(inPlace > cases / 4, "\(inPlace) of \(cases) in place")
  }

  @Test func aValueSetInPlaceTakesThePathOfChangesInPlace() throws {
    let bytes = Array(#"[{"id": "a", "title": "x", "tags": ["p"], "color": 1}]"#.utf8)
    let original = try #require(RecordFile<TaskRecord>.decode(bytes).document.records.first)
    var record = original
    record.title = "y"
    record.tags = ["p", "q"]
    bytes.withUnsafeBufferPointer { buffer in
      let span = JSONSpan.scan(buffer, at: 1)
      let changes = FileImage.changesInPlace(from: original, to: record, over: span)
      #expect(changes?.map(\.member) == [1, 2])
      var out: [UInt8] = []
      if let changes {
        ValuePatch(bytes: buffer, style: .lines).writeMembers(
          span, changes: changes, indent: [], multiline: false, into: &out)
      }
      #expect(
        String(decoding: out, as: UTF8.self) == #"{"id": "a", "title": "y", "tags": ["p","q"], "color": 1}"#)
      record.custom["color"] = nil
      #expect(FileImage.changesInPlace(from: original, to: record, over: span) == nil, "a member removed")
    }
  }
}

extension String {
  fileprivate func replacingFirst(_ piece: String, with replacement: String) -> String {
    guard let range = range(of: piece) else { return self }
    return replacingCharacters(in: range, with: replacement)
  }
}
