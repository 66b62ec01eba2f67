import Foundation
import RecordKit
import Testing

@testable import RecordShell

/// A session keeps no copy of its file: the image of the bytes read says where each
/// record lies, and the bytes stay in the file, kept open (`HeldFile`); so it is after a
/// save, for the file written. Saves still change only what changed.
@Suite struct NoCopyOfTheFileTests {
  static let text = Array(
    """
    [
       {"id": "a1", "title": "caf\\u00e9", "priority": 2},
       {"id": "b2", "title": "two",   "priority": 1}
    ]

    """.utf8)

  /// Each layout's file, and what a save writes after `a1`'s priority is set to 3.
  static let files: [(name: String, text: String, edited: String)] = [
    (
      "t.json", String(decoding: text, as: UTF8.self),
      String(decoding: text, as: UTF8.self).replacingOccurrences(
        of: "\"priority\": 2}", with: "\"priority\": 3}")
    ),
    (
      "t.jsonl",
      "{\"id\":\"a1\", \"title\":\"caf\\u00e9\",\"priority\":2}\n{\"id\":\"b2\",\"title\":\"two\"}\n",
      "{\"id\":\"a1\", \"title\":\"caf\\u00e9\",\"priority\":3}\n{\"id\":\"b2\",\"title\":\"two\"}\n"
    ),
    ("t.csv", "id,title,priority\na1,\"café\",2\nb2,two,1\n", "id,title,priority\na1,\"café\",3\nb2,two,1\n"),
  ]

  @Test(arguments: 0..<3)
  func theImageHoldsNoBytesBeforeOrAfterASave(_ index: Int) throws {
    let (name, text, edited) = Self.files[index]
    try TestDirectory.with { folder throws in
      try folder.write(name, Array(text.utf8))
      var session = try FileBytesPropertyTests.open(folder, name)
      let read = try #require(session.persistence.image)
      #expect(read.image.heldBytes == nil, "no copy of the bytes read")
      #expect(read.file != nil)
      _ = try session.run(line: "use a1")
      _ = try session.run(line: "set priority 3")
      _ = try session.run(line: "save")
      #expect(String(decoding: try folder.read(name), as: UTF8.self) == edited)
      let written = try #require(session.persistence.currentImage())
      // A table's save says not where each row went: its image is read back whole.
      #expect((written.image.heldBytes == nil) == !name.hasSuffix(".csv"))
      _ = try session.run(line: "set priority 2")
      _ = try session.run(line: "save")
      #expect(String(decoding: try folder.read(name), as: UTF8.self) == text)
    }
  }
}
