import Foundation
import Testing

/// Every command of the command table, through the built binary, checking output and the file on disk.
@Suite struct CommandTests {
  /// Runs `script` on a fresh copy of the three-task file; the result and the file after.
  func run(_ script: String, arguments: [String] = []) throws -> (RecshBinary.Result, String) {
    let folder = try TempFolder()
    try folder.threeTasks()
    let result = try folder.recsh(["t.json"] + arguments, stdin: script)
    return (result, try folder.read("t.json"))
  }

  @Test func newCreatesSelectsAndSavesARecordWithItsFields() throws {
    let (result, file) = try run("new title \"Buy milk\" priority 2 tags [a, \"b c\"]\nshow\nsave\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("title     Buy milk\n"))
    #expect(
      file.contains(
        "\"title\": \"Buy milk\",\n    \"priority\": 2,\n    \"tags\": [\n      \"a\",\n      \"b c\"\n    ]")
    )
  }

  @Test func deleteRemovesTheSelectedOrNamedRecordAndUndoPutsItBack() throws {
    let (result, file) = try run("delete @2\nlist\nundo\nlist\nsave\n")
    #expect(result.status == 0)
    #expect(result.stdout.contains("(2 records)"))
    #expect(result.stdout.contains("Undid: Delete record"))
    #expect(file.contains("\"id\": \"b2bbbbbb\""))
    let (noSelection, _) = try run("delete\n")
    #expect(
      noSelection.stderr.contains("no record selected; 'use REF' selects one, or 'delete REF' names one"))
  }

  @Test func useAcceptsAnIdAPrefixOrAPosition() throws {
    let (result, _) = try run("use b2bbbbbb\nshow\nuse c3\nshow\nuse @1\nshow\n")
    #expect(result.status == 0)
    #expect(result.stdout.components(separatedBy: "id        ").count == 4)
    let (ambiguous, _) = try run("new title x\nuse zz\n")
    #expect(ambiguous.stderr.contains("no record with id or id prefix 'zz'"))
  }

  @Test func setWithSeveralPairsIsOneUndoStepNamedByItsFields() throws {
    let (result, _) = try run("use a1\nset title new priority 5\nundo\nshow\n")
    #expect(result.stdout.contains("Undid: Set title, priority\n"))
    #expect(result.stdout.contains("title     one\n"))
    #expect(result.stdout.contains("priority  1\n"))
  }

  @Test func aFailedSetChangesNothingAndKeepsRedo() throws {
    let (result, file) = try run(
      "use a1\nset title x\nundo\nset title y priority 7\nredo\nsave\n", arguments: ["-k"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("Redid: Set title"))
    #expect(file.contains("\"title\": \"x\""))
  }

  @Test func setNullAndUnsetAreDifferent() throws {
    let (result, file) = try run("use a1\nset due null\nsave\n")
    #expect(result.status == 0)
    #expect(file.contains("\"due\": null"))
    let (unset, unsetFile) = try run(
      "use a1\nset due 2026-12-01\nunset due\nunset title\nsave\n", arguments: ["-k"])
    #expect(unset.stderr.contains("field 'title' is not optional"))
    #expect(!unsetFile.contains("\"due\""))
  }

  @Test func customFieldsNeedThePlusFormToBeCreatedAndKeepTheirPlace() throws {
    let (result, file) = try run("use c3\nset color blue\nset +size 3\nunset color\nundo\nsave\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(file.contains("\"color\": \"blue\",\n    \"size\": 3\n"))
    let (typo, _) = try run("use a1\nset colour red\n")
    #expect(typo.stderr.contains("unknown field 'colour'"))
  }

  @Test func addAndRemoveEditOneListElement() throws {
    let (result, file) = try run("use b2\nadd tags home\nremove tags work\nadd tags home\nsave\n")
    #expect(result.status == 0)
    #expect(file.contains("\"tags\": [\n      \"home\"\n    ]"))
    let (missing, _) = try run("use b2\nremove tags gym\n")
    #expect(missing.stderr.contains("field 'tags' does not contain gym"))
  }

  @Test func showPrintsEveryFieldAligned() throws {
    let (result, _) = try run("show c3\n")
    #expect(
      result.stdout == """
        id        c3cccccc
        title     three
        detail    (not set)
        done      (not set)
        priority  (not set)
        tags      (not set)
        due       (not set)
        color     red  (custom)

        """)
  }

  @Test func listFiltersByFieldValue() throws {
    let (result, _) = try run("list tags=work\nlist priority=1 done=false\nlist color=red\nlist due=null\n")
    #expect(result.status == 0, "\(result.stderr)")
    // One table per command, each ending with its count line.
    let blocks = result.stdout.components(separatedBy: " records)\n").dropLast()
    #expect(blocks.count == 4)
    guard blocks.count == 4 else { return }
    #expect(
      blocks[0].contains("b2bbbbbb") && !blocks[0].contains("a1aaaaaa") && blocks[0].hasSuffix("(1 of 3"))
    #expect(blocks[1].contains("a1aaaaaa") && !blocks[1].contains("b2bbbbbb"))
    #expect(blocks[2].contains("c3cccccc") && !blocks[2].contains("a1aaaaaa"))
    #expect(blocks[3].hasSuffix("(3"), "absent and null both match null")
    let (bad, _) = try run("list priority=high\n")
    #expect(bad.stderr.contains("field 'priority': expected an integer 0–5, found high"))
    let (typo, _) = try run("list titel=x\n")
    #expect(typo.stderr.contains("unknown field 'titel'; did you mean 'title'?"))
  }

  @Test func groupsMakeOneStepAndRollbackRevertsTheInnermost() throws {
    let (result, file) = try run(
      """
      begin review
      use a1
      set title A
      begin
      use b2
      set title B
      rollback
      end
      history
      undo
      redo
      save

      """)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Undid: review\nRedid: review\n"))
    #expect(file.contains("\"title\": \"A\""))
    #expect(file.contains("\"title\": \"two\""))
  }

  @Test func undoAndRedoInsideAGroupAreErrorsThatNameIt() throws {
    let (result, _) = try run("begin plan\nundo\n")
    #expect(
      result.stderr.hasPrefix(
        "<stdin>:2: error: cannot undo while group 'plan' (opened at <stdin>:1) is open; "
          + "close it with 'end' or discard it with 'rollback'\n"))
    let (end, _) = try run("end\n")
    #expect(end.stderr == "<stdin>:1: error: 'end' without an open group; 'begin [NAME]' opens one\n")
  }

  @Test func undoAndRedoCountAndSayHowMany() throws {
    let (result, _) = try run("use a1\nset title x\nset title y\nundo 5\nredo 1\n")
    #expect(
      result.stdout
        == "Undid: Set title\nUndid: Set title\n(2 of 5 steps: no more to undo)\nRedid: Set title\n")
    let (nothing, _) = try run("undo\n")
    #expect(nothing.stderr == "<stdin>:1: error: nothing to undo\n")
    #expect(nothing.status == 1)
  }

  @Test func historyShowsStepsPositionSavePointAndRedo() throws {
    let (result, _) = try run("use a1\nset title x\nsave\nset done true\nundo\nhistory\n")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let history = Array(lines.drop { !$0.contains("Set title") })
    #expect(history.count == 2)
    #expect(history[0].hasPrefix(" > 1  Set title"))
    #expect(history[0].hasSuffix("<- now [saved]"))
    #expect(history[1].hasPrefix("   2  Set done"))
    #expect(history[1].hasSuffix("(can redo)"))
  }

  @Test func historySaysWhenTheLimitDroppedSteps() throws {
    let (result, _) = try run(
      "use a1\nset priority 2\nset priority 3\nset priority 4\nhistory\n", arguments: ["--undo-limit", "2"])
    #expect(result.stdout.hasPrefix("(1 older step dropped by the undo limit of 2)\n"))
  }

  @Test func fieldsAndHelpComeFromTheTables() throws {
    let (result, _) = try run("fields\nhelp\nhelp set\n")
    #expect(result.stdout.contains("  priority  int 0–5\n"))
    #expect(result.stdout.contains("  id        string, read-only\n"))
    #expect(result.stdout.contains("set FIELD VALUE [FIELD VALUE]..."))
    #expect(result.stdout.contains("examples:\n  set title \"Renew passport\""))
    let (unknown, _) = try run("help sett\n")
    #expect(unknown.stderr.contains("no command 'sett'; did you mean 'set'?"))
  }

  @Test func openRefusesWithUnsavedChangesUnlessForced() throws {
    let folder = try TempFolder()
    try folder.threeTasks()
    try folder.write("other.json", "[{\"id\": \"zz\", \"title\": \"other\"}]")
    let refused = try folder.recsh(["t.json", "-c", "use a1; set title x; open other.json"])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("1 unsaved change to \"t.json\"; 'save' first, or 'open!' to discard"))
    let forced = try folder.recsh(["t.json", "-c", "use a1; set title x; open! other.json; list"])
    #expect(forced.status == 0)
    #expect(forced.stdout.contains("other"))
    let grouped = try folder.recsh(["t.json", "-c", "begin; open other.json"])
    #expect(grouped.stderr.contains("cannot open while group unnamed group (opened at <command>:1) is open"))
  }

  @Test func quitStopsTheScriptAndQuitBangToo() throws {
    let (result, _) = try run("list\nquit\nlist\n")
    #expect(result.stdout.components(separatedBy: "(3 records)").count == 2)
    let (exit, _) = try run("exit\nlist\n")
    #expect(exit.stdout.isEmpty)
    let (bang, _) = try run("use a1\nset title x\nquit!\n")
    #expect(bang.status == 0)
  }

  @Test func severalCommandsShareALineAndCommentsAreIgnored() throws {
    let (result, file) = try run("# a comment\nuse a1; set title \"semi;colon\" # trailing\nsave\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(file.contains("\"title\": \"semi;colon\""))
  }

  @Test func unknownCommandsSuggestTheClosestOne() throws {
    let (result, _) = try run("lsit\n")
    #expect(result.stderr == "<stdin>:1: error: unknown command 'lsit'; did you mean 'list'?\n")
  }

  @Test func contactsUseNestedFields() throws {
    let folder = try TempFolder()
    let result = try folder.recsh(
      ["--kind", "contact", "c.json"], stdin: "new name Ann address.city Lyon\nset address.zip 69001\nsave\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try folder.read("c.json").contains(
        "\"address\": {\n      \"city\": \"Lyon\",\n      \"zip\": \"69001\"\n    }"))
  }
}
