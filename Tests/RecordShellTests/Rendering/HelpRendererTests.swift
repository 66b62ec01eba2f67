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
    // Wide enough for a usage, it stands whole on its line.
    for command in CommandTable.commands where width >= command.usage.count + 2 {
      #expect(text.contains("\n  " + command.usage))
    }
  }

  @Test func aWideTerminalGetsOneLinePerCommand() throws {
    let text = try HelpRenderer.help(nil, width: 200)
    #expect(text.split(separator: "\n").count == 1 + CommandTable.commands.count + 2)
    // The usage column is as wide as the longest usage, list's (64 characters), and two
    // spaces.
    let setUsage = "set FIELD VALUE [FIELD VALUE]... [where FILTER...]"
    #expect(
      text.contains(
        "\n  " + setUsage + String(repeating: " ", count: 64 - setUsage.count + 2)
          + "set fields of the selected record, or of every match (one undo step); "))
  }

  @Test func summariesWrapUnderTheirColumn() throws {
    let text = try HelpRenderer.help(nil, width: 200)
    // At 200 columns every summary fits beside the 64-character usage column.
    #expect(
      text.contains(
        "\n  delete [REF] | delete where FILTER..." + String(repeating: " ", count: 64 - 37 + 2)
          + "delete a record (the selected one by default), or every match (one undo step)\n"))
  }

  @Test func aNarrowTerminalPutsSummariesUnderTheirUsage() throws {
    let text = try HelpRenderer.help(nil, width: 80)
    #expect(
      text.contains(
        "\n  delete [REF] | delete where FILTER...\n"
          + "      delete a record (the selected one by default), or every match (one undo\n"
          + "      step)\n"))
  }

  @Test func aCommandsHelpWrapsItsSummaryButNotItsExamples() throws {
    let text = try HelpRenderer.help("set", width: 30)
    #expect(
      text.hasPrefix(
        "usage: set FIELD VALUE [FIELD\n  VALUE]... [where FILTER...]\n  set fields of the selected\n"
          + "  record, or of every match\n"))
    #expect(text.contains("\n  set title \"Renew passport\"\n"))
  }
}
