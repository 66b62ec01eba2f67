import Testing

@testable import RecordShell

/// `help` wraps to the width it is given, losing no word, and never breaks an example.
@Suite struct HelpRendererTests {
  static func words(_ text: String) -> [Substring] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" })
  }

  @Test(arguments: [20, 40, 60, 80, 132])
  func theOverviewFitsTheWidthAndKeepsEveryWord(_ width: Int) throws {
    let text = try HelpRenderer.help(nil, width: width)
    for line in text.split(separator: "\n") {
      // A line is over only when it is a single word too long for any line.
      #expect(line.count <= width || Self.words(String(line)).count == 1, "\(width): \(line)")
    }
    #expect(Self.words(text) == Self.words(HelpRenderer.overview(width: 10_000)))
    // Wide enough for the longest usage, each stands whole on its line.
    for command in CommandTable.commands where width >= 40 {
      #expect(text.contains("\n  " + command.usage))
    }
  }

  @Test func aWideTerminalGetsOneLinePerCommand() throws {
    let text = try HelpRenderer.help(nil, width: 200)
    #expect(text.split(separator: "\n").count == 1 + CommandTable.commands.count + 2)
    #expect(
      text.contains(
        "\n  set FIELD VALUE [FIELD VALUE]...  set fields of the selected record (one undo step); "))
  }

  @Test func summariesWrapUnderTheirColumn() throws {
    let text = try HelpRenderer.help(nil, width: 80)
    #expect(
      text.contains(
        "\n  delete [REF]                      delete a record (the selected one by\n"
          + "                                    default)\n"))
  }

  @Test func aCommandsHelpWrapsItsSummaryButNotItsExamples() throws {
    let text = try HelpRenderer.help("set", width: 30)
    #expect(text.hasPrefix("usage: set FIELD VALUE [FIELD\n  VALUE]...\n  set fields of the selected\n"))
    #expect(text.contains("\n  set title \"Renew passport\"\n"))
  }
}
