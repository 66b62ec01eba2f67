import Testing

@testable import RecordShell
@testable import recsh

/// The prompt's colours: every escape sequence inside libedit's ignore
/// markers, so the cursor stays right; none at all without colour.
@Suite struct PromptStyleTests {
  static let prompt = Prompt(
    fileName: "tasks.json", selectedID: "k3x9p2aa", isDirty: true,
    group: Prompt.Group(name: "review", enclosing: 1))

  @Test func withoutColourThePromptIsPlainText() {
    #expect(PromptStyle(colour: false).render(Self.prompt) == "tasks.json k3x9p2aa* (review +1)> ")
    #expect(PromptStyle(colour: false).continuation == "...> ")
  }

  @Test func colourSequencesAreInsideIgnoreMarkers() {
    let rendered = PromptStyle(colour: true).render(Self.prompt)
    var visible = ""
    var ignoring = false
    for scalar in rendered.unicodeScalars {
      switch scalar {
      case "\u{1}": ignoring = true
      case "\u{2}": ignoring = false
      default: if !ignoring { visible.unicodeScalars.append(scalar) }
      }
    }
    #expect(visible == "tasks.json k3x9p2aa* (review +1)> ")
    #expect(rendered.contains("\u{1}\u{1b}[1m\u{2}tasks.json"))
  }
}
