import Foundation
import Glibc
import Testing

/// What the file system and other programs can do to a save or a load, on the built
/// binary: a file size limit, a save killed midway, a file truncated while it is read.
@Suite struct StorageHardeningTests {
  static func bigFile(_ count: Int, in folder: TempFolder, name: String = "big.json") throws {
    var text = "[\n"
    for number in 1...count {
      text += "  {\n    \"id\": \"r\(number)\",\n    \"title\": \"Task number \(number) with some words\",\n"
      text += "    \"done\": false,\n    \"priority\": 3\n  }\(number == count ? "" : ",")\n"
    }
    text += "]\n"
    try folder.write(name, text)
  }

  static func temporaryFiles(in folder: TempFolder) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }
      .sorted()
  }

  /// Past `ulimit -f` the save fails with EFBIG (SIGXFSZ would have killed recsh midway):
  /// reported, the temporary file removed, the original intact, the edits still there.
  @Test func aSaveOverTheFileSizeLimitFailsCleanly() throws {
    let folder = try TempFolder()
    try Self.bigFile(40_000, in: folder)
    let before = try folder.read("big.json")
    #expect(before.utf8.count > 2_000_000)
    let result = try RecshBinary.runShell(
      // `ulimit -f` counts 512-byte blocks in this shell (dash).
      "ulimit -f 1000; exec \"$RECSH\" -k big.json -c 'use r1; set title changed; save; show r1'",
      directory: folder.url)
    #expect(result.status == 1)
    // The history's copy of the file is compressed (a tenth of it: under the limit), so
    // only the save fails.
    #expect(
      result.stderr.hasPrefix(
        "<command>:1: error: cannot save \"big.json\": EFBIG: file too large for this process's file size limit"
          + " (512000 bytes) (write)\n"), "\(result.stderr)")
    var status = stat()
    #expect(stat(folder.logPath("big.json"), &status) == 0)
    #expect(status.st_size < 512_000 && status.st_size < before.utf8.count / 4, "\(status.st_size)")
    #expect(result.stdout.contains("title     changed\n"))
    #expect(try folder.read("big.json") == before)
    #expect(try Self.temporaryFiles(in: folder).isEmpty)
  }

  /// Temporary files of recsh's own naming that no running recsh holds are removed at the
  /// session's first change (when it takes the file's lock), and said; other names are left
  /// alone. A session that changes nothing removes nothing.
  @Test func staleTemporaryFilesAreRemovedAtTheFirstEdit() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    for name in [
      ".t.json.recsh-Ab12Cd.tmp", ".t.json.recsh-zzzzzz.tmp", ".t.json.recsh-toolong.tmp",
      ".u.json.recsh-Ab12Cd.tmp", "t.json.recsh-Ab12Cd.tmp", ".t.json.recsh-Ab_2Cd.tmp",
    ] {
      try folder.write(name, "partial")
    }
    let reader = try folder.recsh(["t.json", "-c", "list"])
    #expect(reader.status == 0)
    #expect(reader.stderr.isEmpty)
    #expect(try Self.temporaryFiles(in: folder).count == 6, "a session that changes nothing writes nothing")
    let result = try folder.recsh(["t.json", "-c", "use a1; set title x"])
    #expect(result.status == 0)
    #expect(
      result.stderr.contains(
        "warning: removed \"./.t.json.recsh-Ab12Cd.tmp\", left by a save of \"t.json\" that did not finish"),
      "\(result.stderr)")
    #expect(result.stderr.contains("warning: removed \"./.t.json.recsh-zzzzzz.tmp\""))
    #expect(
      try Self.temporaryFiles(in: folder) == [
        ".t.json.recsh-Ab_2Cd.tmp", ".t.json.recsh-toolong.tmp", ".u.json.recsh-Ab12Cd.tmp",
        "t.json.recsh-Ab12Cd.tmp",
      ])
  }

  /// A recsh that holds the file keeps its own temporary file: a second one cannot take
  /// the lock and so removes nothing.
  @Test func aRunningRecshKeepsItsTemporaryFiles() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let first = try InteractivePipe(arguments: ["t.json"], directory: folder.url)
    first.send("use a1\nset title first\nshow a1\n")
    _ = try first.readUntil("title     first")
    try folder.write(".t.json.recsh-Ab12Cd.tmp", "being written")
    let second = try folder.recsh(["t.json", "-c", "use b2; set title second"])
    #expect(second.status == 3)
    #expect(try Self.temporaryFiles(in: folder) == [".t.json.recsh-Ab12Cd.tmp"])
    first.close()
  }

  /// `kill -9` in the middle of a save leaves its temporary file; the next open removes it.
  @Test func aSaveKilledMidwayLeavesNothingBehindForLong() throws {
    let folder = try TempFolder()
    try Self.bigFile(100_000, in: folder)
    let before = try folder.read("big.json")
    let child = try InteractivePipe(arguments: ["big.json"], directory: folder.url)
    child.send("use r1\nset title changed\nshow\n")
    // Shown as done, so in the journal before the save starts.
    _ = try child.readUntil("title     changed")
    child.send("save\n")
    let deadline = Date().addingTimeInterval(60)
    while try Self.temporaryFiles(in: folder).isEmpty, Date() < deadline { usleep(1000) }
    kill(child.process.processIdentifier, SIGKILL)
    child.close()
    let left = try Self.temporaryFiles(in: folder)
    try #require(left.count == 1, "the kill came after the save: \(left)")
    #expect(try folder.read("big.json") == before)
    let next = try folder.recsh(["big.json", "--recover", "-c", "show r1; save"])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(next.stderr.contains("removed \"./\(left[0])\""))
    #expect(next.stdout.contains("title     changed\n"))
    #expect(try Self.temporaryFiles(in: folder).isEmpty)
  }

  /// A file truncated by another program while recsh reads it: never a crash; either the
  /// load saw one whole version of the file, or it says the file changed and opens nothing.
  @Test func aFileTruncatedWhileBeingReadIsRefusedNotACrash() throws {
    let folder = try TempFolder()
    try Self.bigFile(100_000, in: folder)
    let original = try Data(contentsOf: folder.url.appendingPathComponent("big.json"))
    var hits = 0
    var attempt = 0
    while hits == 0 || attempt < 5 {
      attempt += 1
      try #require(attempt <= 40, "no truncation landed during a load in 40 tries")
      try original.write(to: folder.url.appendingPathComponent("big.json"))
      let process = Process()
      process.executableURL = RecshBinary.url
      process.arguments = ["big.json", "-c", "show r1"]
      process.currentDirectoryURL = folder.url
      process.standardInput = FileHandle.nullDevice
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      usleep(UInt32(20_000 + attempt * 7_000 % 150_000))
      truncate(folder.path("big.json"), 4096)
      let errData = errors.fileHandleForReading.readDataToEndOfFile()
      _ = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let stderr = String(decoding: errData, as: UTF8.self)
      #expect(process.terminationReason == .exit, "recsh died of signal \(process.terminationStatus)")
      if stderr == "big.json: error: changed while being read; nothing was opened\n" {
        #expect(process.terminationStatus == 3)
        hits += 1
      } else {
        // Read before or after the truncation: a whole file, or a clear syntax error.
        #expect(process.terminationStatus == 0 || stderr.hasPrefix("big.json:"), "\(stderr)")
      }
    }
  }
}
