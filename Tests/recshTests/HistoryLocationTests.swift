import Testing

@testable import recsh

/// Where typed lines are kept: `RECSH_HISTORY`, else the XDG state folder.
@Suite struct HistoryLocationTests {
  static func resolve(_ environment: [String: String], home: String? = "/home/pw") -> HistoryLocation {
    HistoryLocation.resolve({ environment[$0] }, home: { home })
  }

  @Test func recshHistoryNamesTheFileAndEmptyTurnsItOff() {
    #expect(Self.resolve(["RECSH_HISTORY": "/tmp/h", "HOME": "/home/u"]) == .file("/tmp/h"))
    #expect(Self.resolve(["RECSH_HISTORY": "", "HOME": "/home/u"]) == .none)
  }

  @Test func theStateFolderComesFromXDGStateHome() {
    #expect(
      Self.resolve(["XDG_STATE_HOME": "/s", "HOME": "/home/u"])
        == .stateFile(folder: "/s/recsh", file: "/s/recsh/history"))
  }

  @Test func withoutXDGStateHomeItIsUnderHome() {
    let expected = HistoryLocation.stateFile(
      folder: "/home/u/.local/state/recsh", file: "/home/u/.local/state/recsh/history")
    #expect(Self.resolve(["HOME": "/home/u"]) == expected)
    #expect(Self.resolve(["XDG_STATE_HOME": "relative", "HOME": "/home/u"]) == expected)
  }

  @Test func withoutHomeItAsksThePasswordDatabaseOrGivesUp() {
    #expect(
      Self.resolve([:])
        == .stateFile(folder: "/home/pw/.local/state/recsh", file: "/home/pw/.local/state/recsh/history"))
    #expect(Self.resolve([:], home: nil) == .none)
  }
}
