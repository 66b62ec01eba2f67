import Foundation
import Testing

/// JSON Lines files (`.jsonl`, `.ndjson`) through the built binary: opened, edited, saved
/// as lines; converted by `save other.json` and back; the history and the journal work
/// on them as on arrays; a broken file is refused with its line and left untouched.
@Suite struct JSONLinesCommandTests {
  static let lines = """
    {"id":"a1aaaaaa","title":"one","done":false,"priority":1}
    {"id":"b2bbbbbb","title":"two","tags":["work"],"cost":1.50}
    {"id":"c3cccccc","title":"three","color":"red"}

    """

  static func folder(_ name: String = "t.jsonl") throws -> TempFolder {
    let folder = try TempFolder()
    try folder.write(name, lines)
    return folder
  }

  @Test func anEditSavesOneChangedLine() throws {
    let folder = try Self.folder()
    let result = try folder.recsh(["t.jsonl", "-c", "use b2; set title deux; save"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try folder.read("t.jsonl") == Self.lines.replacingOccurrences(of: "\"two\"", with: "\"deux\""))
    let again = try folder.recsh(["t.jsonl", "-c", "save"])
    #expect(again.status == 0)
    #expect(try folder.read("t.jsonl") == Self.lines.replacingOccurrences(of: "\"two\"", with: "\"deux\""))
  }

  @Test func savingConvertsBothWaysAndBackByteForByte() throws {
    let folder = try Self.folder()
    #expect(try folder.recsh(["t.jsonl", "-c", "save t.json"]).status == 0)
    let array = try folder.read("t.json")
    #expect(array.hasPrefix("[\n  {\n    \"id\": \"a1aaaaaa\",\n"))
    #expect(array.contains("\"cost\": 1.50"))
    #expect(try folder.recsh(["t.json", "-c", "save back.ndjson"]).status == 0)
    #expect(try folder.read("back.ndjson") == Self.lines)
    let same = try folder.recsh(["diff", "t.jsonl", "t.json"])
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
  }

  @Test func blankLinesAndAMissingFinalNewlineAreReadAndKept() throws {
    let folder = try TempFolder()
    let text = "\n{\"id\":\"a1\",\"title\":\"one\"}\n   \n{\"id\":\"b2\",\"title\":\"two\"}"
    try folder.write("t.jsonl", text)
    let listed = try folder.recsh(["t.jsonl", "-c", "count"])
    #expect(listed.stdout == "2\n", "\(listed.stderr)")
    #expect(try folder.recsh(["t.jsonl", "-c", "save"]).status == 0)
    #expect(try folder.read("t.jsonl") == text)
    #expect(
      try folder.recsh([
        "t.jsonl", "-c", "use b2", "-c", "set title deux", "-c", "new id c3 title three", "-c", "save",
      ]).status == 0)
    #expect(
      try folder.read("t.jsonl")
        == "\n{\"id\":\"a1\",\"title\":\"one\"}\n   \n{\"id\":\"b2\",\"title\":\"deux\"}\n   \n{\"id\":\"c3\",\"title\":\"three\"}",
      "a new record is set off from the one before it as that one is from its own")
  }

  @Test func aTornLastLineIsRefusedAndTheFileKept() throws {
    let folder = try TempFolder()
    let torn = "{\"id\":\"a1\",\"title\":\"one\"}\n{\"id\":\"b2\",\"title\":\"tw"
    try folder.write("t.jsonl", torn)
    let result = try folder.recsh(["t.jsonl", "-c", "list"])
    #expect(result.status == 3)
    #expect(
      result.stderr
        == "t.jsonl:2:1: error: the last line ends inside its value (the file ends with no line break, mid-value)\n"
    )
    #expect(result.stdout.isEmpty)
    #expect(try folder.read("t.jsonl") == torn)
  }

  @Test func aLineHoldingAnArrayIsRefusedWithItsLine() throws {
    let folder = try TempFolder()
    try folder.write("t.ndjson", "{\"id\":\"a1\"}\n[{\"id\":\"b2\"}]\n")
    let result = try folder.recsh(["t.ndjson", "-c", "list"])
    #expect(result.status == 3)
    #expect(result.stderr == "t.ndjson:2:1: error: record 2: expected an object, found an array\n")
  }

  @Test func theHistoryLastsAcrossSessions() throws {
    let folder = try Self.folder()
    #expect(try folder.recsh(["t.jsonl", "-c", "use a1; set title uno; save"]).status == 0)
    let back = try folder.recsh(["t.jsonl", "-c", "undo; save"])
    #expect(back.status == 0, "\(back.stderr)")
    #expect(try folder.read("t.jsonl") == Self.lines)
    // and the step undone is still there to redo, in a third session
    #expect(try folder.recsh(["t.jsonl", "-c", "redo; save"]).status == 0)
    #expect(try folder.read("t.jsonl").contains("\"title\":\"uno\""))
  }

  @Test func aKilledSessionIsRecovered() throws {
    let folder = try Self.folder()
    let child = try InteractivePipe(arguments: ["t.jsonl"], directory: folder.url)
    child.send("use a1\nset title killed\nshow\n")
    _ = try child.readUntil("killed")
    kill(child.process.processIdentifier, SIGKILL)
    child.process.waitUntilExit()
    #expect(try folder.read("t.jsonl") == Self.lines)
    let recovered = try folder.recsh(["--recover", "t.jsonl", "-c", "save"])
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(
      try folder.read("t.jsonl") == Self.lines.replacingOccurrences(of: "\"one\"", with: "\"killed\""))
  }

  @Test func aKindInferredFromLinesAndASchemaBesideThem() throws {
    let folder = try TempFolder()
    try folder.write("books.jsonl", "{\"isbn\":\"1\",\"pages\":10}\n{\"isbn\":\"2\",\"pages\":12}\n")
    let inferred = try folder.recsh(["books.jsonl", "-c", "use @2; set pages 13; save"])
    #expect(inferred.status == 0, "\(inferred.stderr)")
    #expect(
      try folder.read("books.jsonl") == "{\"isbn\":\"1\",\"pages\":10}\n{\"isbn\":\"2\",\"pages\":13}\n")
    let wrongType = try folder.recsh(["books.jsonl", "-c", "use @2; set pages many"])
    #expect(wrongType.status != 0)
    try folder.write(
      "books.schema.json",
      #"{"type":"object","properties":{"isbn":{"type":"string"},"pages":{"type":"integer","maximum":12}}}"#)
    let refused = try folder.recsh(["books.jsonl", "-c", "list"])
    #expect(refused.status == 3)
    #expect(refused.stderr.hasPrefix("books.jsonl:2:"), "\(refused.stderr)")
  }
}
