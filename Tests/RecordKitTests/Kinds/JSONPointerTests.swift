import Testing

@testable import RecordKit

/// `JSONPointer`: RFC 6901 text, URI fragments, and lookup.
@Suite struct JSONPointerTests {
  static let fragments: [(String, [String]?)] = [
    ("", []),
    ("/$defs/a", ["$defs", "a"]),
    ("/$defs/tilde~0field", ["$defs", "tilde~field"]),
    ("/$defs/slash~1field", ["$defs", "slash/field"]),
    ("/$defs/percent%25field", ["$defs", "percent%field"]),
    ("/a%20b/", ["a b", ""]),
    ("/a~2", nil),
    ("/a%zz", nil),
    ("/a%ff", nil),
    ("foo", nil),
  ]

  @Test(arguments: fragments)
  func uriFragmentIsDecodedThenUnescaped(_ fragment: String, _ tokens: [String]?) {
    #expect(JSONPointer(uriFragment: fragment[...])?.tokens == tokens)
  }

  @Test func textEscapesTildeAndSlashAndShowsTheRootAsASlash() {
    #expect(JSONPointer(["a/b", "c~d", ""]).description == "/a~1b/c~0d/")
    #expect(JSONPointer.root.description == "/")
  }

  @Test func valueIsFoundByNameAndByCanonicalIndex() throws {
    let document = try JSONValue.parse(bytes: Array(#"{"a": [10, 20, {"b/c": true}]}"#.utf8))
    #expect(JSONPointer(["a", "1"]).value(in: document) == .number("20"))
    #expect(JSONPointer(["a", "2", "b/c"]).value(in: document) == .bool(true))
    #expect(JSONPointer(["a", "01"]).value(in: document) == nil)
    #expect(JSONPointer(["a", "+1"]).value(in: document) == nil)
    #expect(JSONPointer(["a", "3"]).value(in: document) == nil)
    #expect(JSONPointer(["x"]).value(in: document) == nil)
  }
}
