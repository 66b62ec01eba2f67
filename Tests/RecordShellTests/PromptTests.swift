import RecordKit
import Testing

@testable import RecordShell

/// The prompt shows the file, the selected record, unsaved changes and open
/// groups, and never a raw control character from a name.
@Suite struct PromptTests {
  @Test func thePromptShowsFileSelectionChangesAndGroups() throws {
    var session = try Session<TaskRecord>.open(path: nil).session
    #expect(session.promptText == "(unnamed)> ")
    _ = try session.run(line: "new title x")
    let id = try #require(session.selectedID)
    #expect(session.promptText == "(unnamed) \(id)*> ")
    _ = try session.run(line: "begin outer; begin inner")
    #expect(session.promptText == "(unnamed) \(id)* (inner +1)> ")
  }

  @Test func controlCharactersInNamesAreEscaped() {
    let prompt = Prompt(
      fileName: "a\u{1b}]0;x\u{7}.json", selectedID: nil, isDirty: false,
      group: Prompt.Group(name: "new\nline", enclosing: 0))
    #expect(prompt.text == "a\\u{1b}]0;x\\u{7}.json (new\\nline)> ")
  }
}
