import Testing

@testable import RecordShell

@Suite struct VersionTests {
  @Test func versionIsSemantic() {
    #expect(recshVersion.split(separator: ".").count == 3)
  }
}
