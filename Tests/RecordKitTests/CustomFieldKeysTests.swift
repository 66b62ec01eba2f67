import Testing

@testable import RecordKit

/// `CustomFields.addKeys(to:seen:)`, which gathers a file's custom keys decoding each key
/// only where its token is not one it remembers: over records whose keys repeat, move,
/// are spelled with escapes, or are more than it remembers, it gathers exactly the union
/// of every record's `keys`.
@Suite struct CustomFieldKeysTests {
  @Test func gathersTheUnionOfEveryRecordsKeys() {
    var names = ["due", "owner", "estimate", "a", "é", "line\nbreak", "quote\"d", "tab\t", "due2", "ünï"]
    // More keys than the tokens remembered: past them, keys are still gathered.
    names += (0..<(CustomFields.seenLimit + 4)).map { "key\($0)" }
    var generator = JSONWriterTests.SeededGenerator(state: 0xC0FFEE)
    for _ in 0..<200 {
      var records: [CustomFields] = []
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        // Mostly one order of a few keys, as a file's records have; now and then another.
        var keys = Array(names.prefix(Int.random(in: 0...4, using: &generator)))
        if Bool.random(using: &generator) { keys.shuffle(using: &generator) }
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
          keys.append(names.randomElement(using: &generator)!)
        }
        var seenKeys: Set<String> = []
        let members = keys.filter { seenKeys.insert($0).inserted }.map {
          JSONObject.Member(key: $0, value: .number("1"))
        }
        records.append(CustomFields(members))
      }
      var gathered: Set<String> = []
      var seen: [[UInt8]] = []
      for record in records { record.addKeys(to: &gathered, seen: &seen) }
      #expect(gathered == Set(records.flatMap(\.keys)))
    }
  }

  @Test func aKeyDifferentAtAPlaceSeenBeforeIsStillGathered() {
    let first = CustomFields([JSONObject.Member(key: "due", value: .null), .init(key: "owner", value: .null)])
    let second = CustomFields([
      JSONObject.Member(key: "due", value: .null), .init(key: "ówner", value: .null),
    ])
    var gathered: Set<String> = []
    var seen: [[UInt8]] = []
    first.addKeys(to: &gathered, seen: &seen)
    second.addKeys(to: &gathered, seen: &seen)
    first.addKeys(to: &gathered, seen: &seen)
    #expect(gathered == ["due", "owner", "ówner"])
  }
}
