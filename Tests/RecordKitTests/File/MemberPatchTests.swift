import Foundation
import Testing

@testable import RecordKit

/// `MemberPatch`, the save's patch of a record whose values changed in place, writes
/// exactly what the patch of the two whole values writes (`ValuePatch.write`, which the
/// layout tests pin down), or declines; over `FieldPatchTests`' random records in random
/// spellings and random edits, shipped and run-time, and cases where a value spelled
/// otherwise is the same value.
@Suite struct MemberPatchTests {
  /// What `MemberPatch` writes for `record` over `text` (an object alone in an array);
  /// `nil` when it declines. When it writes, the whole-value patch must write the same.
  static func patched<Root: Record>(_ text: String, from original: Root, to record: Root) throws -> String? {
    let bytes = Array(("[" + text + "]").utf8)
    let table = Root.fields
    return try bytes.withUnsafeBufferPointer { buffer in
      let span = JSONSpan.scan(buffer, at: 1)
      var out: [UInt8] = []
      let wrote = withUnsafePointer(to: record) {
        MemberPatch<Root>().write($0, over: span.range, in: buffer, into: &out)
      }
      guard wrote else {
        #expect(out.isEmpty, "a patch that declines writes nothing")
        return nil
      }
      let whole =
        original == record
        ? Array(buffer[span.range])
        : FieldPatchTests.wholeValuePatch(buffer, span, from: original, to: record)
      let written = String(decoding: out, as: UTF8.self)
      #expect(written == String(decoding: whole, as: UTF8.self), "\(text) edited to \(table.encode(record))")
      _ = try #require(try? JSONValue.parse(bytes: out), "valid JSON: \(written)")
      return written
    }
  }

  @Test(arguments: [11, 12, 13] as [UInt64])
  func aTaskWritesWhatTheWholeValuePatchWrites(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var wrote = 0
    let cases = 3_000
    for _ in 0..<cases {
      try FieldPatchTests.withRandomTaskEdit(&random, unevenSeparators: true) { text, original, record in
        if try Self.patched(text, from: original, to: record) != nil { wrote += 1 }
        // The record as it was read is written as its own bytes.
        #expect(try Self.patched(text, from: original, to: original) == text)
      }
    }
    #expect(wrote > cases / 4, "\(wrote) of \(cases) patched in place")
  }

  @Test(arguments: [14, 15] as [UInt64])
  func aRunTimeRecordWritesWhatTheWholeValuePatchWrites(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var wrote = 0
    let cases = 1_500
    for _ in 0..<cases {
      try FieldPatchTests.withRandomRunTimeEdit(&random) { text, original, record in
        if try Self.patched(text, from: original, to: record) != nil { wrote += 1 }
        #expect(try Self.patched(text, from: original, to: original) == text)
      }
    }
    #expect(wrote > cases / 6, "\(wrote) of \(cases) patched in place")
  }

  /// The same value in another spelling keeps its bytes: an escape, a list laid out over
  /// lines. Another Unicode normalization is another value (strings are their bytes, as
  /// filters and run-time kinds hold them), so setting it writes it. Compared as bytes:
  /// Swift's `==` finds the two normalizations equal.
  @Test func aValueSpelledOtherwiseKeepsItsBytes() throws {
    let text =
      "{\"id\": \"a\", \"title\": \"caf\\u00e9\", \"detail\": \"cafe\u{301}\", \"tags\": [ \"p\" ], \"priority\": 1}"
    let original = try #require(
      RecordFile<TaskRecord>.decode(Array(("[" + text + "]").utf8)).document.records.first)
    var record = original
    record.title = "caf\u{e9}"
    record.detail = "caf\u{e9}"
    record.tags = ["p"]
    record.priority = 4
    let written = try #require(try Self.patched(text, from: original, to: record))
    #expect(
      Array(written.utf8)
        == Array(
          "{\"id\": \"a\", \"title\": \"caf\\u00e9\", \"detail\": \"caf\u{e9}\", \"tags\": [ \"p\" ], \"priority\": 4}"
            .utf8))
    record.detail = "cafe\u{301}"
    let kept = try #require(try Self.patched(text, from: original, to: record))
    #expect(
      Array(kept.utf8)
        == Array(text.replacingOccurrences(of: "\"priority\": 1", with: "\"priority\": 4").utf8))
  }

  @Test func aCustomValueWithAnEscapeOrWhiteSpaceIsComparedCanonically() throws {
    let text = #"{"id": "a", "note": "\u0041b", "box": { "k" : [ 1 ] }, "n": 1.50}"#
    let original = try #require(
      RecordFile<TaskRecord>.decode(Array(("[" + text + "]").utf8)).document.records.first)
    var record = original
    record.custom["n"] = .number("2")
    #expect(
      try Self.patched(text, from: original, to: record)
        == #"{"id": "a", "note": "\u0041b", "box": { "k" : [ 1 ] }, "n": 2}"#)
    record.custom["note"] = .string("Ab\"")
    #expect(
      try Self.patched(text, from: original, to: record)
        == #"{"id": "a", "note": "Ab\"", "box": { "k" : [ 1 ] }, "n": 2}"#)
  }

  /// A declared field the original lacks goes after the field before it, new ones in a row
  /// one after the other, with the separators the whole-value patch takes.
  @Test func aNewDeclaredFieldGoesWhereTheWholeValuePatchPutsIt() throws {
    let text = "{\n    \"id\": \"a\",\n    \"title\": \"x\",\n    \"color\": 1\n  }"
    let original = try #require(
      RecordFile<TaskRecord>.decode(Array(("[" + text + "]").utf8)).document.records.first)
    var record = original
    record.priority = 3
    record.done = true
    record.detail = "d"
    #expect(
      try Self.patched(text, from: original, to: record)
        == "{\n    \"id\": \"a\",\n    \"title\": \"x\",\n    \"detail\": \"d\",\n    \"done\": true,\n"
        + "    \"priority\": 3,\n    \"color\": 1\n  }")
    var list = original
    list.tags = ["q"]
    #expect(
      try Self.patched(text, from: original, to: list) == nil,
      "a new list is laid out by the whole-value patch")
  }

  /// What the whole-value patch must do: a member removed, a list or object that
  /// changed, custom members in another order.
  @Test func declinesWhatItDoesNotPatch() throws {
    let text = #"{"id": "a", "title": "x", "tags": ["p"], "color": 1, "size": 2}"#
    let original = try #require(
      RecordFile<TaskRecord>.decode(Array(("[" + text + "]").utf8)).document.records.first)
    var removed = original
    removed.title = nil
    var listChanged = original
    listChanged.tags = ["p", "q"]
    var customRemoved = original
    customRemoved.custom["color"] = nil
    var customAdded = original
    customAdded.custom["shade"] = .string("dark")
    var becameList = original
    becameList.custom["size"] = .array([.number("2")])
    for record in [removed, listChanged, customRemoved, customAdded, becameList] {
      #expect(
        try Self.patched(text, from: original, to: record) == nil, "\(TaskRecord.fields.encode(record))")
    }
    let reordered = #"{"id": "a", "title": "x", "tags": ["p"], "size": 2, "color": 1}"#
    #expect(
      try Self.patched(reordered, from: original, to: original) == nil, "custom members in another order")
  }

  /// A file's list or object against the compact writer's text: the same but for white
  /// space between tokens, never inside a string.
  @Test func whiteSpaceOutsideStringsIsTheOnlyDifferenceAllowed() {
    let cases: [(String, String, Bool)] = [
      ("[\n  \"a\",\n  \"b\"\n]", #"["a","b"]"#, true),
      ("[ ]", "[]", true),
      (#"{"k" : [ 1 , 2 ]}"#, #"{"k":[1,2]}"#, true),
      (#"["a b"]"#, #"["ab"]"#, false),
      (#"["a\" ,b"]"#, #"["a\",b"]"#, false),
      (#"["a\" ,b"]"#, #"["a\" ,b"]"#, true),
      (#"["a"]"#, #"["a"]]"#, false),
      (#"["a"] "#, #"["a"]"#, true),
      (#"["a\u0041"]"#, #"["aA"]"#, false),
    ]
    for (original, compact, same) in cases {
      let answer = Array(original.utf8).withUnsafeBufferPointer { left in
        Array(compact.utf8).withUnsafeBufferPointer { right in
          MemberPatch<TaskRecord>.sameOutsideWhiteSpace(left, right)
        }
      }
      #expect(answer == same, "\(original) against \(compact)")
    }
  }
}
