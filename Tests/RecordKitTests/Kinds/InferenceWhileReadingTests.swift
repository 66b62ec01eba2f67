import Testing

@testable import RecordKit

/// Inference as the records are read (`RecordReading`: each record's members handed over
/// as the reader marked them) against inference that walks each record's text afterwards
/// (`KindInference.add(_: CustomFields)`): random files, in both layouts and both reading
/// paths, must infer the same schema.
@Suite struct InferenceWhileReadingTests {
  /// A random value for a member: every kind JSON has, dates and date-times among the
  /// strings, nested objects and lists.
  static func value(_ random: inout SplitMix64, depth: Int) -> String {
    func pick(_ items: [String]) -> String { items[Int(random.next() % UInt64(items.count))] }
    switch random.next() % 12 {
    case 0: return pick(["null", "true", "false"])
    case 1: return pick(["0", "-7", "12345678901234567890", "1.5", "-0.25e3", "1E2"])
    case 2: return pick([#""2026-12-01""#, #""2024-02-29""#, #""2026-13-01""#])
    case 3: return pick([#""2026-12-01T09:30:00Z""#, #""2026-01-01T00:00:00+01:00""#])
    case 4: return pick([#""plain""#, #""caf\u00e9""#, #""a\"b""#, #""東京""#, #""""#])
    case 5:
      guard depth < 5 else { return "[]" }
      let count = Int(random.next() % 4)
      return "[" + (0..<count).map { _ in value(&random, depth: depth + 1) }.joined(separator: ", ") + "]"
    case 6:
      guard depth < 6 else { return "{}" }
      return object(&random, depth: depth + 1)
    default: return pick([#""x""#, "3", #""2026-12-02""#])
    }
  }

  /// A random object: keys from a small pool (an escaped one among them), some twice as
  /// likely, in a random order.
  static func object(_ random: inout SplitMix64, depth: Int) -> String {
    var keys = ["title", "year", "tags", "when", "a\\\"b", "caf\\u00e9", "nested", "n", "x y"]
    keys.shuffle(using: &random)
    let count = Int(random.next() % UInt64(keys.count + 1))
    let members = keys.prefix(count).map { "\"\($0)\": " + value(&random, depth: depth) }
    return "{" + members.joined(separator: random.next() % 2 == 0 ? ", " : ",\n  ") + "}"
  }

  /// The schemas inferred from `text` read as `layout`: while reading, and by walking.
  static func inferBothWays(_ text: String, layout: RecordLayout, streaming: Bool) throws -> (
    whileReading: JSONValue, walking: JSONValue
  ) {
    let bytes = Array(text.utf8)
    let read = try RunTimeKind.$current.withValue(.unbound) {
      try bytes.withUnsafeBufferPointer { buffer in
        try RecordFile<RunTimeRecord>.decodeRecordsAndTable(
          buffer, layout: layout, streaming: streaming, readings: nil, inferring: true, passing: { _ in })
      }
    }
    let whileReading = try #require(read.inference)
    var walking = KindInference()
    for record in read.records { walking.add(record.custom) }
    #expect(whileReading.untypedKeys == walking.untypedKeys)
    return (whileReading.schemaDocument(title: "t"), walking.schemaDocument(title: "t"))
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func inferenceWhileReadingIsInferenceByWalking(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for _ in 0..<150 {
      let records = (0..<Int(random.next() % 12)).map { _ in Self.object(&random, depth: 0) }
      let array = "[\n" + records.joined(separator: ",\n") + "\n]\n"
      let lines = records.map { $0.filter { $0 != "\n" } }.joined(separator: "\n") + "\n"
      for streaming in [true, false] {
        let fromArray = try Self.inferBothWays(array, layout: .array, streaming: streaming)
        #expect(fromArray.whileReading == fromArray.walking, "\(array)")
        let fromLines = try Self.inferBothWays(lines, layout: .lines, streaming: streaming)
        #expect(fromLines.whileReading == fromLines.walking, "\(lines)")
        #expect(fromLines.whileReading == fromArray.whileReading)
      }
    }
  }

  /// The marks of a record's members are where its keys and values are in its text, and
  /// what kinds of element each list member holds.
  @Test func theReaderMarksEachMembersKeyAndValue() throws {
    let source = Array(
      #"{ "a" : 1, "b\"c": [1, {"d": 2}], "" : "x", "e": [], "f": [2.5, "s", [0], null] }"#.utf8)
    var writer = JSONWriter(compact: true)
    var marks = MemberMarks()
    try source.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(unsafeBytes: buffer)
      _ = try reader.peek()
      try reader.readCanonicalObject(into: &writer, members: &marks)
    }
    let text = String(decoding: writer.bytes, as: UTF8.self)
    #expect(text == #"{"a":1,"b\"c":[1,{"d":2}],"":"x","e":[],"f":[2.5,"s",[0],null]}"#)
    // Each member's start (the comma before all but the first) and its value's start.
    #expect(
      (0..<marks.count).map { [marks[$0].place >> 32, marks[$0].place & 0xFFFF_FFFF] }
        == [[1, 5], [6, 14], [25, 29], [32, 37], [39, 44]])
    #expect(
      (0..<marks.count).map { marks[$0].elements } == [
        [], [.integer, .object], [], [], [.number, .string, .array, .null],
      ])
  }

  /// More keys than inference types: the same ones untyped either way.
  @Test func pastTheKeyLimitBothWaysCountTheSameUntypedKeys() throws {
    let records = (0..<(KindInference.fieldLimit + 30)).map { #"{"k\#($0)": \#($0)}"# }
    let both = try Self.inferBothWays(
      "[" + records.joined(separator: ",") + "]", layout: .array, streaming: true)
    #expect(both.whileReading == both.walking)
  }
}
