import Testing

@testable import RecordShell

@Suite struct CommandLineTests {
  @Test func versionPrintsTheVersionAndExitsZero() throws {
    let result = try RecshBinary.run(["--version"])
    #expect(result.stdout == "recsh \(recshVersion)\n")
    #expect(result.stderr.isEmpty)
    #expect(result.status == 0)
  }

  @Test func helpPrintsUsageAndExitsZero() throws {
    let result = try RecshBinary.run(["--help"])
    #expect(result.stdout.hasPrefix("usage: recsh"))
    #expect(result.status == 0)
  }
}
