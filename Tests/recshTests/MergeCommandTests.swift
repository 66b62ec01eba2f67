import Foundation
import Testing

/// `recsh merge BASE OURS THEIRS` through the built binary: a clean merge, conflicts kept
/// beside the file and settled in the shell, every bad input, JSON Lines named by
/// `--path`, and real git configured with the README's lines.
@Suite struct MergeCommandTests {
  static let base = """
    [
      {"id": "a1", "title": "one", "priority": 1},
      {"id": "b2", "title": "two"},
      {"id": "c3", "title": "three"}
    ]

    """

  /// base.json, ours.json (a1's title, b2's title), theirs.json (a1's priority, b2's
  /// title otherwise, c3 deleted, d4 added).
  static func folder() throws -> TempFolder {
    let folder = try TempFolder()
    try folder.write("base.json", base)
    try folder.write(
      "ours.json",
      base.replacingOccurrences(of: "\"one\"", with: "\"uno\"").replacingOccurrences(
        of: "\"two\"", with: "\"dos\""))
    try folder.write(
      "theirs.json",
      """
      [
        {"id": "a1", "title": "one", "priority": 5},
        {"id": "b2", "title": "deux"},
        {"id": "d4", "title": "four"}
      ]

      """)
    return folder
  }

  /// In OURS's layout: its records' bytes, a1 patched, d4 as THEIRS has it.
  static let merged = """
    [
      {"id": "a1", "title": "uno", "priority": 5},
      {"id": "b2", "title": "dos"},
      {"id": "d4", "title": "four"}
    ]

    """

  /// OURS's layout is kept: its unchanged records and the bytes between them as they were,
  /// a record changed by THEIRS patched member by member, a record only THEIRS has in its
  /// bytes there.
  @Test func aMergeKeepsOursLayoutAndTheirsRecordsBytes() throws {
    let folder = try TempFolder()
    let base = "[\n   {\"id\": \"a1\",  \"n\": 1},\n\n   {\"id\": \"b2\",  \"n\": 2}\n]"
    try folder.write("base.json", base)
    try folder.write("ours.json", base.replacingOccurrences(of: "\"n\": 2", with: "\"n\": 20"))
    try folder.write(
      "theirs.json", "[{\"id\":\"a1\",\"n\":10},{\"id\":\"b2\",\"n\":2},{\"id\":\"c3\",\"n\":3}]\n")
    let result = try folder.recsh(["merge", "base.json", "ours.json", "theirs.json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try folder.read("ours.json")
        == "[\n   {\"id\": \"a1\",  \"n\": 10},\n\n   {\"id\": \"b2\",  \"n\": 20},\n\n   {\"id\":\"c3\",\"n\":3}\n]"
    )
  }

  @Test func aCleanMergeWritesOursAndExitsZero() throws {
    let folder = try Self.folder()
    try folder.write(
      "theirs.json", Self.base.replacingOccurrences(of: "\"priority\": 1", with: "\"priority\": 5"))
    let result = try folder.recsh(["merge", "base.json", "ours.json", "theirs.json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty && result.stderr.isEmpty)
    #expect(
      try folder.read("ours.json")
        == "[\n  {\"id\": \"a1\", \"title\": \"uno\", \"priority\": 5},\n  {\"id\": \"b2\", \"title\": \"dos\"},\n"
        + "  {\"id\": \"c3\", \"title\": \"three\"}\n]\n",
      "OURS's layout, only a1's priority changed")
    #expect(!folder.exists(folder.conflictsPath("ours.json")))
  }

  @Test func aMergeThatTakesNothingLeavesOursByteForByte() throws {
    let folder = try Self.folder()
    try folder.write("theirs.json", Self.base)
    let before = try folder.read("ours.json")
    let result = try folder.recsh(["merge", "base.json", "ours.json", "theirs.json"])
    #expect(result.status == 0)
    #expect(try folder.read("ours.json") == before)
  }

  @Test func conflictsExitOneAreListedKeptAndSettledInTheShell() throws {
    let folder = try Self.folder()
    let result = try folder.recsh(["merge", "base.json", "ours.json", "theirs.json", "-o", "out.json"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout == "b2 title: \"two\" → \"dos\" | \"deux\"\n")
    #expect(
      result.stderr
        == "recsh merge: 1 conflict in out.json; the file holds ours' value and \"\(folder.conflictsPath("out.json"))\" "
        + "keeps the conflicts: open the file in recsh, 'conflicts' lists them, "
        + "'resolve REF FIELD ours|theirs|VALUE' settles each\n")
    #expect(try folder.read("out.json") == Self.merged)
    #expect(folder.exists(folder.conflictsPath("out.json")))
    // Opening the file says so; `conflicts` lists them; `resolve` settles one, undoably.
    let listed = try folder.recsh(["out.json", "-c", "conflicts"])
    #expect(listed.status == 0)
    #expect(listed.stdout == "b2 title: \"two\" → \"dos\" | \"deux\"\n(1 open of 1)\n")
    #expect(
      listed.stderr
        == "out.json: warning: 1 merge conflict kept in \"\(folder.conflictsPath("out.json"))\": the file holds ours' value; "
        + "'conflicts' lists them, 'resolve REF FIELD ours|theirs|VALUE' settles each\n")
    let undone = try folder.recsh(["out.json", "-c", "resolve b2 title theirs; undo; conflicts"])
    #expect(
      undone.stdout.hasSuffix("b2 title: \"two\" → \"dos\" | \"deux\"\n(1 open of 1)\n"), "\(undone.stdout)")
    let settled = try folder.recsh(["out.json", "-c", "resolve b2 title theirs; conflicts; save"])
    #expect(settled.status == 0, "\(settled.stderr)")
    #expect(settled.stdout.contains("no merge conflicts left (1 settled; 'save' removes"))
    #expect(try folder.read("out.json") == Self.merged.replacingOccurrences(of: "\"dos\"", with: "\"deux\""))
    #expect(!folder.exists(folder.conflictsPath("out.json")))
    let after = try folder.recsh(["out.json", "-c", "conflicts"])
    #expect(after.stdout == "no merge conflicts\n")
    #expect(after.stderr.isEmpty)
  }

  @Test func resolveTakesAValueAndTheWholeRecord() throws {
    let folder = try Self.folder()
    try folder.write(
      "theirs.json",
      """
      [
        {"id": "a1", "title": "one", "priority": 1},
        {"id": "b2", "title": "deux"}
      ]

      """)
    try folder.write(
      "ours.json",
      Self.base.replacingOccurrences(of: "\"two\"", with: "\"dos\"").replacingOccurrences(
        of: "\"three\"", with: "\"tres\""))
    let result = try folder.recsh(["merge", "base.json", "ours.json", "theirs.json"])
    #expect(result.status == 1)
    #expect(
      result.stdout
        == "b2 title: \"two\" → \"dos\" | \"deux\"\n"
        + "c3 *: {\"id\": \"c3\", \"title\": \"three\"} → {\"id\": \"c3\", \"title\": \"tres\"} | (deleted)\n"
    )
    let bad = try folder.recsh(["ours.json", "-c", "resolve c3 * 'x'"])
    #expect(bad.status == 1)
    #expect(
      bad.stderr.hasSuffix("error: a conflict of the whole record (*) is settled with 'ours' or 'theirs'\n"))
    let missing = try folder.recsh(["ours.json", "-c", "resolve a1 title ours"])
    #expect(
      missing.stderr.hasSuffix("error: no open merge conflict for a1 title; 'conflicts' lists the 2 open\n"))
    let done = try folder.recsh([
      "ours.json", "-c", "resolve b2 title 'both'; resolve c3 * theirs; history; save",
    ])
    #expect(done.status == 0, "\(done.stderr)")
    #expect(done.stdout.contains("Resolve b2 title"))
    #expect(done.stdout.contains("Resolve c3 *"))
    let records = try folder.recsh(["ours.json", "--format", "jsonl", "-c", "list"])
    #expect(
      records.stdout
        == "{\"id\":\"a1\",\"title\":\"one\",\"priority\":1}\n{\"id\":\"b2\",\"title\":\"both\"}\n")
  }

  @Test func badInputIsRefusedAndOursIsLeftAsItWas() throws {
    let folder = try Self.folder()
    let ours = try folder.read("ours.json")
    try folder.write("contacts.json", #"[{"id": "p1", "name": "Ann", "email": "ann@example.com"}]"#)
    try folder.write("dup.json", #"[{"id": "a1", "title": "x"}, {"id": "a1", "title": "y"}]"#)
    try folder.write("broken.json", #"[{"id": "a1"},"#)
    let cases: [([String], String)] = [
      (
        ["base.json", "ours.json", "missing.json"],
        "recsh: error: cannot read \"missing.json\": ENOENT: no such file or directory (stat)"
      ),
      (
        ["base.json", "ours.json", "dup.json"],
        "dup.json:1:30: error: records 1 and 2 have the same id \"a1\"\n"
          + "recsh: THEIRS \"dup.json\" does not read as kind ours, the kind of OURS \"ours.json\""
      ),
      (
        ["broken.json", "ours.json", "theirs.json"],
        "broken.json:1:15: error: unexpected end of input in array\n"
          + "recsh: BASE \"broken.json\" does not read as kind ours, the kind of OURS \"ours.json\""
      ),
      (
        ["contacts.json", "ours.json", "theirs.json"],
        "contacts.json:1:2: error: record 1 (id \"p1\"): field 'title': is required but missing\n"
          + "recsh: BASE \"contacts.json\" does not read as kind ours, the kind of OURS \"ours.json\""
      ),
    ]
    for (files, message) in cases {
      let result = try folder.recsh(["merge"] + files)
      #expect(result.status == 3, "\(files)")
      #expect(result.stderr == message + "\n", "\(files) \(result.stderr.debugDescription)")
      #expect(result.stdout.isEmpty)
      #expect(try folder.read("ours.json") == ours)
      #expect(!folder.exists(folder.conflictsPath("ours.json")))
    }
    let usage = try folder.recsh(["merge", "base.json", "ours.json"])
    #expect(usage.status == 2)
    #expect(usage.stderr.hasPrefix("recsh: 'merge' takes three files: BASE OURS THEIRS\nusage: recsh merge"))
  }

  @Test func allThreeEmptyMergeToEmpty() throws {
    let folder = try TempFolder()
    for name in ["b.json", "o.json", "t.json"] { try folder.write(name, "") }
    let result = try folder.recsh(["merge", "b.json", "o.json", "t.json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try folder.read("o.json") == "")
  }

  @Test func anEmptiedOursTakesTheKindOfTheOthers() throws {
    let folder = try TempFolder()
    let contacts = #"[{"id": "p1", "name": "Ann", "email": "ann@example.com", "phone": "1"}]"#
    try folder.write("b.json", contacts)
    try folder.write("o.json", "")
    try folder.write("t.json", contacts.replacingOccurrences(of: "\"1\"", with: "\"2\""))
    let result = try folder.recsh(["merge", "b.json", "o.json", "t.json"])
    // ours deleted the record, theirs changed it: a conflict, and ours (nothing) stays
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("p1 *: "), "\(result.stdout)")
    #expect(try folder.read("o.json") == "")
  }

  @Test func recordsWithoutAKeyCannotBeMergedByRecord() throws {
    let folder = try TempFolder()
    for name in ["b.json", "o.json", "t.json"] {
      try folder.write(name, #"[{"title": "A", "year": 2001}]"#)
    }
    let result = try folder.recsh(["merge", "b.json", "o.json", "t.json"])
    #expect(result.status == 3)
    #expect(
      result.stderr
        == "recsh: cannot merge o.json: the records have no key (no \"id\", nor another field unique to each), "
        + "so they cannot be matched across the three files; merge them by hand (git keeps its own conflict)\n"
    )
  }

  @Test(.enabled(if: getuid() != 0, "root may write anything"))
  func aReadOnlyOursIsRefusedAndLeftAsItWas() throws {
    let folder = try Self.folder()
    let ours = try folder.read("ours.json")
    chmod(folder.path("ours.json"), 0o444)
    defer { chmod(folder.path("ours.json"), 0o644) }
    let refused = try folder.recsh(["merge", "base.json", "ours.json", "theirs.json"])
    #expect(refused.status == 3)
    #expect(
      refused.stderr
        == "recsh: cannot save \"ours.json\": EACCES: permission denied (access); ours.json is unchanged\n",
      "\(refused.stderr)")
    #expect(try folder.read("ours.json") == ours)
    #expect(!folder.exists(folder.conflictsPath("ours.json")))
  }

  /// A write that fails (here past `ulimit -f`, which binds root too) leaves OURS as it was.
  @Test func aFailedWriteLeavesOursAsItWas() throws {
    let folder = try Self.folder()
    let ours = try folder.read("ours.json")
    let result = try RecshBinary.runShell(
      "ulimit -f 0; exec \"$RECSH\" merge base.json ours.json theirs.json", directory: folder.url)
    #expect(result.status == 3)
    #expect(
      result.stderr
        == "recsh: cannot save \"ours.json\": EFBIG: file too large for this process's file size limit "
        + "(0 bytes) (write); ours.json is unchanged\n", "\(result.stderr)")
    #expect(try folder.read("ours.json") == ours)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(names.sorted() == ["base.json", "ours.json", "theirs.json"], "no temporary file left: \(names)")
  }

  @Test func aSymlinkedOursIsWrittenThrough() throws {
    let folder = try Self.folder()
    try FileManager.default.createSymbolicLink(
      atPath: folder.path("link.json"), withDestinationPath: "ours.json")
    let linked = try folder.recsh(["merge", "base.json", "link.json", "theirs.json"])
    #expect(linked.status == 1)
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.json")) == "ours.json")
    #expect(try folder.read("ours.json") == Self.merged)
    #expect(folder.exists(folder.conflictsPath("link.json")))
  }

  @Test func thePathNamesJSONLinesForFilesWithoutAnExtension() throws {
    let folder = try TempFolder()
    try folder.write("O", #"{"id":"a","title":"one","priority":1}"# + "\n")
    try folder.write("A", #"{"id":"a","title":"uno","priority":1}"# + "\n")
    try folder.write("B", #"{"id":"a","title":"one","priority":2}"# + "\n")
    let result = try folder.recsh(["merge", "--path", "tasks.jsonl", "O", "A", "B"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try folder.read("A") == #"{"id":"a","title":"uno","priority":2}"# + "\n")
  }

  static let gitSetup = """
    set -e
    git init -q .
    git config user.email test@example.com && git config user.name Test && git config commit.gpgsign false
    printf '*.json merge=recsh diff=recsh\\n*.jsonl merge=recsh diff=recsh\\n' > .gitattributes
    printf '.*.recsh-*\\n' > .gitignore
    git config merge.recsh.name "recsh record merge"
    git config merge.recsh.driver "$RECSH merge --path %P %O %A %B"
    git config diff.recsh.command "$RECSH diff"
    git add . && git commit -q -m base
    git branch theirs

    """

  static func git(_ script: String, in folder: TempFolder) throws -> RecshBinary.Result {
    try RecshBinary.runShell(
      gitSetup + script, environment: ["HOME": folder.url.path, "GIT_CONFIG_NOSYSTEM": "1"],
      directory: folder.url)
  }

  /// Two branches edit different fields of one record: `git merge` succeeds with both.
  @Test func gitMergesDifferentFieldsOfOneRecord() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try Self.git(
      """
      "$RECSH" t.json -c 'use a1; set title uno; save' > /dev/null
      git commit -q -am ours
      git checkout -q theirs
      "$RECSH" t.json -c 'use a1; set priority 5; save' > /dev/null
      git commit -q -am theirs
      git checkout -q -
      git merge -q --no-edit theirs > /dev/null
      "$RECSH" t.json --format jsonl -c 'show a1'
      git status --porcelain
      """, in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == #"{"id":"a1aaaaaa","title":"uno","done":false,"priority":5}"# + "\n",
      "\(result.stdout)")
  }

  /// Both branches edit one field: `git merge` reports the conflict, the file opens in
  /// recsh holding ours' value, and `resolve` settles it.
  @Test func gitReportsAConflictThatRecshSettles() throws {
    let folder = try TempFolder()
    try folder.write(
      "t.jsonl", #"{"id":"a1","title":"one"}"# + "\n" + #"{"id":"b2","title":"two"}"# + "\n")
    let result = try Self.git(
      """
      "$RECSH" t.jsonl -c 'use a1; set title uno; save' > /dev/null
      git commit -q -am ours
      git checkout -q theirs
      "$RECSH" t.jsonl -c 'use a1; set title eins; use b2; set title zwei; save' > /dev/null
      git commit -q -am theirs
      git checkout -q -
      if out=$(git merge -q --no-edit theirs 2>&1); then echo "merged?"; exit 9; fi
      printf '%s\n' "$out"
      cat t.jsonl
      "$RECSH" t.jsonl -c 'conflicts; resolve a1 title theirs; save'
      cat t.jsonl
      git add t.jsonl && git commit -q --no-edit
      git status --porcelain
      """, in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.contains(#"a1 title: "one" → "uno" | "eins""#), "\(result.stdout)")
    #expect(lines.contains("CONFLICT (content): Merge conflict in t.jsonl"), "\(result.stdout)")
    let expectedEnd: [String] = [
      #"{"id":"a1","title":"uno"}"#, #"{"id":"b2","title":"zwei"}"#, #"a1 title: "one" → "uno" | "eins""#,
      "(1 open of 1)", #"{"id":"a1","title":"eins"}"#, #"{"id":"b2","title":"zwei"}"#, "",
    ]
    #expect(Array(lines.suffix(expectedEnd.count)) == expectedEnd, "\(result.stdout)")
    #expect(!result.stdout.contains("<<<<<<<"))
    #expect(
      result.stderr.contains("1 merge conflict kept in \"\(folder.conflictsPath("t.jsonl"))\""),
      "\(result.stderr)")
    #expect(!folder.exists(folder.conflictsPath("t.jsonl")))
  }
}
