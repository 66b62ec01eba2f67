import RecordKit

/// Every shell command, in the order `help` lists them. Parsing, `help` and
/// completion all read this one table.
enum CommandTable {
  static let commands: [CommandSpec] = editing + viewing + grouping + files + other

  private static let editing: [CommandSpec] = [
    CommandSpec(
      name: "new", aliases: [], usage: "new [FIELD VALUE]...",
      summary: "create a record and select it",
      examples: ["new", "new title \"Buy milk\" priority 2", "new title Call tags [phone, family]"],
      arguments: [.fieldValuePairs(customFields: false)], hasForceForm: false
    ) { (args, context) throws(ParseError) in .new(try args.assignments(context)) },
    CommandSpec(
      name: "insert", aliases: [], usage: "insert [@N] JSON",
      summary: "create a record given whole, as the file would hold it, before @N (at the end by default)",
      examples: [#"insert '{"id": "7f3a9c21", "title": "Buy milk"}'"#, #"insert @1 '{"title": "First"}'"#],
      arguments: [.ref], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let first = try args.word()
      guard !args.isAtEnd else { return .insert(position: nil, record: first) }
      guard first.hasPrefix("@"), let number = Int(first.dropFirst()), number > 0 else {
        throw .badPosition(command: "insert", found: first)
      }
      let record = try args.word()
      try args.end()
      return .insert(position: number - 1, record: record)
    },
    CommandSpec(
      name: "delete", aliases: [], usage: "delete [REF] | delete where FILTER...",
      summary: "delete a record (the selected one by default), or every match (one undo step)",
      examples: ["delete", "delete k3x9", "delete @2", "delete where done=true"], arguments: [.ref],
      hasForceForm: false
    ) { (args, context) throws(ParseError) in
      if args.hasKeyword("where") {
        guard let first = args.next(), first.value == .word("where") else {
          throw .unexpectedArgument(command: "delete", found: "where", usage: args.usage)
        }
        return .deleteWhere(filters: try args.filters(context, required: true))
      }
      let ref = try args.optionalWord()
      try args.end()
      return .delete(ref: ref)
    },
    CommandSpec(
      name: "use", aliases: [], usage: "use REF",
      summary: "select a record by id, id prefix or @N",
      examples: ["use k3x9p2aa", "use k3x", "use @1"], arguments: [.ref], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let ref = try args.word()
      try args.end()
      return .use(ref: ref)
    },
    CommandSpec(
      name: "set", aliases: [], usage: "set FIELD VALUE [FIELD VALUE]... [where FILTER...]",
      summary:
        "set fields of the selected record, or of every match (one undo step); +FIELD makes a custom field",
      examples: [
        "set title \"Renew passport\"", "set done true priority 0", "set due null", "set +color red",
        "set priority 5 where done=false due<2026-12-31",
      ],
      arguments: [.fieldValuePairs(customFields: true)], hasForceForm: false
    ) { (args, context) throws(ParseError) in
      if args.hasKeyword("where") {
        let assignments = try args.bulkAssignments(context)
        guard !assignments.isEmpty else { throw .missingArgument(command: args.command, usage: args.usage) }
        return .bulk(assignments, filters: try args.filters(context, required: true))
      }
      let assignments = try args.assignments(context)
      guard !assignments.isEmpty else { throw .missingArgument(command: args.command, usage: args.usage) }
      return .set(FieldAssignments(assignments))
    },
    CommandSpec(
      name: "unset", aliases: [], usage: "unset FIELD [where FILTER...]",
      summary: "remove an optional or custom field from the selected record, or from every match",
      examples: ["unset due", "unset color", "unset due where done=true"], arguments: [.field],
      hasForceForm: false
    ) { (args, context) throws(ParseError) in
      if args.hasKeyword("where") {
        let field = try context.filterField(try args.word())
        guard let keyword = args.next(), keyword.value == .word("where") else {
          throw .unexpectedArgument(command: "unset", found: "where", usage: args.usage)
        }
        return .bulk([BulkAssignment(field, .unset)], filters: try args.filters(context, required: true))
      }
      let field = try context.field(try args.word())
      try args.end()
      return .unset(field: field.name)
    },
    CommandSpec(
      name: "add", aliases: [], usage: "add FIELD VALUE [where FILTER...]",
      summary: "add one element to a list field of the selected record, or of every match",
      examples: ["add tags urgent", "add tags \"at home\"", "add tags review where priority>=4"],
      arguments: [.listFieldElement(fromSelected: false)],
      hasForceForm: false
    ) { (args, context) throws(ParseError) in try listEdit(&args, context, adding: true) },
    CommandSpec(
      name: "remove", aliases: [], usage: "remove FIELD VALUE [where FILTER...]",
      summary: "remove one element from a list field of the selected record, or of every match",
      examples: ["remove tags urgent", "remove tags urgent where done=true"],
      arguments: [.listFieldElement(fromSelected: true)],
      hasForceForm: false
    ) { (args, context) throws(ParseError) in try listEdit(&args, context, adding: false) },
  ]

  private static let viewing: [CommandSpec] = [
    CommandSpec(
      name: "show", aliases: [], usage: "show [REF]", summary: "print one record, every field",
      examples: ["show", "show @3"], arguments: [.ref], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let ref = try args.optionalWord()
      try args.end()
      return .show(ref: ref)
    },
    CommandSpec(
      name: "list", aliases: ["ls"],
      usage: "list [FILTER]... [sort [-]FIELD]... [limit N] [fields F1,F2,...]",
      summary:
        "print the records: filtered (FIELD OP VALUE, OP: = != < <= > >= ~), sorted, limited, some fields",
      examples: [
        "list", "list done=false", "list tags=work priority>=3", "list due<2026-12-31 sort due limit 10",
        "list title~milk fields id,title", "list due=null sort -priority",
      ],
      arguments: [.filter], hasForceForm: false
    ) { (args, context) throws(ParseError) in
      .list(try args.query(context))
    },
    CommandSpec(
      name: "assert", aliases: [], usage: "assert [REF] FILTER...",
      summary:
        "fail unless the record (the selected one by default) matches every filter; a script stops there",
      examples: ["assert priority=3", "assert k3x9 done=false due<2027-01-01", "assert @2 tags=work"],
      arguments: [.filter], hasForceForm: false
    ) { (args, context) throws(ParseError) in
      var ref: String?
      if args.peekIsRef() { ref = try args.word() }
      return .assert(ref: ref, filters: try args.filters(context, required: true))
    },
    CommandSpec(
      name: "count", aliases: [], usage: "count [FILTER]...",
      summary: "print how many records the filters match (all of them without filters)",
      examples: ["count", "count done=false", "count priority>=3 tags=work"], arguments: [.filter],
      hasForceForm: false
    ) { (args, context) throws(ParseError) in
      .count(filters: try args.filters(context, required: false))
    },
    CommandSpec(
      name: "preview", aliases: [], usage: "preview COMMAND",
      summary: "print the difference an editing command would make, changing nothing and recording nothing",
      examples: [
        "preview set priority 5 where done=false", "preview undo 3", "preview delete @2", "preview goto 12",
      ],
      arguments: [.command], hasForceForm: false
    ) { (args, context) throws(ParseError) in
      let tokens = args.rest()
      guard let first = tokens.first else { throw .missingArgument(command: "preview", usage: args.usage) }
      let inner = try ShellParser.parse(TokenizedCommand(tokens), context: context)
      guard inner.isPreviewable else {
        throw .notPreviewable(first.value.description)
      }
      return .preview(inner)
    },
    CommandSpec(
      name: "log", aliases: [], usage: "log [REF] [FIELD]",
      summary:
        "the steps that changed a record (the selected one by default), or one field of it, newest first",
      examples: ["log", "log k3x9", "log priority", "log @2 tags"], arguments: [.ref], hasForceForm: false
    ) { (args, context) throws(ParseError) in
      let first = try args.optionalWord()
      let second = try args.optionalWord()
      try args.end()
      // One word: a field of the selected record when it names one, else a record.
      guard let first else { return .log(ref: nil, field: nil) }
      guard let second else {
        let isField = context.declaredFields.contains(first) || context.customFields.contains(first)
        return isField ? .log(ref: nil, field: first) : .log(ref: first, field: nil)
      }
      return .log(ref: first, field: try context.filterField(second))
    },
    CommandSpec(
      name: "blame", aliases: [], usage: "blame [REF]",
      summary: "each field of a record (the selected one by default) with the step that last set it",
      examples: ["blame", "blame k3x9", "blame @2"], arguments: [.ref], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let ref = try args.optionalWord()
      try args.end()
      return .blame(ref: ref)
    },
    CommandSpec(
      name: "diff", aliases: [], usage: "diff [FROM [TO]]",
      summary: "what changed between two states (step N, saved, now, start, 10m back), by record and field",
      examples: ["diff", "diff 12", "diff saved now", "diff start 3", "diff 1h"],
      arguments: [.keyword(["saved", "now", "start"])], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let from = try args.historyPoint()
      let to = try args.historyPoint()
      try args.end()
      return .diff(from: from, to: to)
    },
    CommandSpec(
      name: "conflicts", aliases: [], usage: "conflicts",
      summary: "the open conflicts recsh merge left: key field: base → ours | theirs (the file holds ours)",
      examples: ["conflicts"], arguments: [.none], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      try args.end()
      return .conflicts
    },
    CommandSpec(
      name: "resolve", aliases: [], usage: "resolve REF FIELD ours|theirs|VALUE",
      summary:
        "settle a merge conflict with ours', theirs' or a new value (one undo step); FIELD * is the record",
      examples: ["resolve k3x9p2aa title theirs", "resolve k3x due 2026-12-24", "resolve k3x * ours"],
      arguments: [.ref, .field, .keyword(["ours", "theirs"])], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let ref = try args.word()
      let field = try args.word()
      let value = try args.value()
      try args.end()
      switch value {
      case .word("ours"): return .resolve(ref: ref, field: field, choice: .ours)
      case .word("theirs"): return .resolve(ref: ref, field: field, choice: .theirs)
      default: return .resolve(ref: ref, field: field, choice: .value(value))
      }
    },
    CommandSpec(
      name: "history", aliases: [], usage: "history [all|clear|info]",
      summary:
        "the undo steps of this branch (all: the whole tree); clear: drop them; info: where kept, size",
      examples: ["history", "history all", "history clear", "history info"],
      arguments: [.keyword(["all", "clear", "info"])],
      hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let mode = try args.optionalWord()
      try args.end()
      switch mode {
      case nil: return .history(all: false)
      case "all": return .history(all: true)
      case "clear": return .clearHistory
      case "info": return .historyInfo
      case let other?:
        throw .unexpectedArgument(command: "history", found: other, usage: "history [all|clear|info]")
      }
    },
    CommandSpec(
      name: "goto", aliases: [], usage: "goto N",
      summary: "go to the state after step N, on any branch (0: the start)",
      examples: ["goto 12", "goto 0"], arguments: [.count], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      guard let text = try args.optionalWord() else {
        throw .missingArgument(command: "goto", usage: "goto N")
      }
      try args.end()
      guard let step = Int(text), step >= 0 else { throw .badStep(found: text) }
      return .goto(step)
    },
    CommandSpec(
      name: "earlier", aliases: [], usage: "earlier TIME|Nsave",
      summary: "go back in time: to the state of 10m (s, m, h, d) ago, or of N saves back",
      examples: ["earlier 10m", "earlier 1save"], arguments: [.count], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      .earlier(try args.span())
    },
    CommandSpec(
      name: "later", aliases: [], usage: "later TIME|Nsave",
      summary: "go forward in time: to the state of 10m (s, m, h, d) later, or N saves on",
      examples: ["later 10m", "later 1save"], arguments: [.count], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      .later(try args.span())
    },
    CommandSpec(
      name: "fields", aliases: [], usage: "fields",
      summary:
        "list the kind's fields with their types, rules and descriptions, and say which kind this is and why",
      examples: ["fields"], arguments: [.none], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      try args.end()
      return .fields
    },
    CommandSpec(
      name: "schema", aliases: [], usage: "schema",
      summary: "print the kind as a JSON Schema (draft 2020-12), to save beside the file and edit",
      examples: ["schema"], arguments: [.none], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      try args.end()
      return .schema
    },
  ]

  private static let grouping: [CommandSpec] = [
    CommandSpec(
      name: "begin", aliases: [], usage: "begin [NAME]",
      summary: "open a group: everything until its 'end' becomes one undo step",
      examples: ["begin", "begin \"weekly review\""], arguments: [.name], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let name = try args.optionalWord()
      try args.end()
      return .begin(name: name)
    },
    CommandSpec(
      name: "end", aliases: [], usage: "end", summary: "close the innermost group",
      examples: ["end"], arguments: [.none], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      try args.end()
      return .end
    },
    CommandSpec(
      name: "rollback", aliases: [], usage: "rollback",
      summary: "revert everything since the innermost 'begin' and close that group",
      examples: ["rollback"], arguments: [.none], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      try args.end()
      return .rollback
    },
    CommandSpec(
      name: "undo", aliases: [], usage: "undo [N]", summary: "undo the last N steps (default 1)",
      examples: ["undo", "undo 3"], arguments: [.count], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let count = try args.count()
      try args.end()
      return .undo(count: count)
    },
    CommandSpec(
      name: "redo", aliases: [], usage: "redo [N]", summary: "redo N undone steps (default 1)",
      examples: ["redo", "redo 2"], arguments: [.count], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let count = try args.count()
      try args.end()
      return .redo(count: count)
    },
  ]

  private static let files: [CommandSpec] = [
    CommandSpec(
      name: "save", aliases: [], usage: "save[!] [FILE]",
      summary: "write the file atomically; save! overrides the changed-on-disk and overwrite checks",
      examples: ["save", "save backup.json", "save!"], arguments: [.file], hasForceForm: true
    ) { (args, _) throws(ParseError) in
      let file = try args.optionalWord()
      try args.end()
      return .save(file: file, force: false)
    },
    CommandSpec(
      name: "export", aliases: [], usage: "export[!] FILE [FROM [TO]]",
      summary:
        "write the edits from FROM to TO (saved to now by default) as a script that redoes them, guarded by asserts",
      examples: [
        "export today.rsh", "export! today.rsh", "export week.rsh start now", "export last.rsh 12 15",
      ],
      arguments: [.file, .keyword(["saved", "now", "start"])], hasForceForm: true
    ) { (args, _) throws(ParseError) in
      let file = try args.word()
      let from = try args.historyPoint()
      let to = try args.historyPoint()
      try args.end()
      return .export(file: file, from: from, to: to, force: false)
    },
    CommandSpec(
      name: "open", aliases: [], usage: "open[!] FILE",
      summary: "load another file; open! discards unsaved changes",
      examples: ["open contacts.json", "open! tasks.json"], arguments: [.file], hasForceForm: true
    ) { (args, _) throws(ParseError) in
      let file = try args.word()
      try args.end()
      return .open(file: file, force: false)
    },
    CommandSpec(
      name: "source", aliases: [], usage: "source FILE", summary: "run the commands in FILE as a script",
      examples: ["source weekly.rsh"], arguments: [.file], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let file = try args.word()
      try args.end()
      return .source(file: file)
    },
  ]

  private static let other: [CommandSpec] = [
    CommandSpec(
      name: "format", aliases: [], usage: "format [\(OutputFormat.names)]",
      summary: "how list, show, count, history and fields print (json: the records as the file holds them)",
      examples: ["format jsonl", "format csv", "format table"],
      arguments: [.keyword(OutputFormat.allCases.map(\.rawValue))], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      guard let name = try args.optionalWord() else { return .format(nil) }
      try args.end()
      guard let format = OutputFormat(rawValue: name) else { throw .badFormat(found: name) }
      return .format(format)
    },
    CommandSpec(
      name: "timing", aliases: [], usage: "timing [on|off]",
      summary: "after each command, print its wall time on standard error ('time: 0.123 s')",
      examples: ["timing on", "timing off"], arguments: [.keyword(["on", "off"])], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      guard let word = try args.optionalWord() else { return .timing(nil) }
      try args.end()
      switch word {
      case "on": return .timing(true)
      case "off": return .timing(false)
      default: throw .badSwitch(command: "timing", found: word)
      }
    },
    CommandSpec(
      name: "help", aliases: [], usage: "help [COMMAND|FIELD]",
      summary:
        "list commands, or explain one command, or one field of the kind (type, rules, description, values)",
      examples: ["help", "help set", "help due"], arguments: [.command], hasForceForm: false
    ) { (args, _) throws(ParseError) in
      let name = try args.optionalWord()
      try args.end()
      return .help(command: name)
    },
    CommandSpec(
      name: "quit", aliases: ["exit"], usage: "quit[!]",
      summary: "leave; refuses once while there are unsaved changes; quit! leaves anyway",
      examples: ["quit", "quit!"], arguments: [.none], hasForceForm: true
    ) { (args, _) throws(ParseError) in
      try args.end()
      return .quit(force: false)
    },
  ]

  private static func listEdit(_ args: inout ArgumentCursor, _ context: ParseContext, adding: Bool)
    throws(ParseError) -> ShellCommand
  {
    if args.hasKeyword("where") {
      let field = try context.filterField(try args.word())
      let element = try args.value()
      guard let keyword = args.next(), keyword.value == .word("where") else {
        throw .unexpectedArgument(command: args.command, found: "where", usage: args.usage)
      }
      let change: BulkChange = adding ? .add(element) : .remove(element)
      return .bulk([BulkAssignment(field, change)], filters: try args.filters(context, required: true))
    }
    let field = try context.field(try args.word())
    let element = try args.value()
    try args.end()
    return .listEdit(field: field.name, element: element, adding: adding)
  }

  /// The command named `name` (or one of its aliases).
  static func spec(named name: String) -> CommandSpec? {
    commands.first { $0.name == name || $0.aliases.contains(name) }
  }

  /// Every name a command can be typed as.
  static var allNames: [String] {
    commands.flatMap { [$0.name] + $0.aliases }
  }
}
