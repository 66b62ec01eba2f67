/// Tab completion: a pure function from a line and a cursor to what may
/// complete the word before the cursor, driven by the command table's
/// argument kinds and the kind's field table.
///
/// - At the start of a command (also after `;`): command names.
/// - After `set` and `new`: field names, then a value for the field just named
///   (`true`/`false` for a bool, `null` for a nullable field, 0–5 for a
///   priority), alternating. `set` also offers the selected record's custom
///   fields; the `+FIELD` form creates a field, so it is never completed.
/// - After `unset`: the fields it can clear (optional and custom ones).
/// - After `add`/`remove`: list fields, then an element: any the document has
///   for `add`, the selected record's for `remove`.
/// - Where a REF goes (`use`, `show`, `delete`): record ids.
/// - After `open`/`save`/`source`: file paths; a folder ends with `/` and no space.
/// - After `help`: command names.
/// - After `list` and `count`: `FIELD=`, then the field's values (also after any other
///   operator: `priority>=` offers 0–5); `list` also offers `sort`, `limit` and `fields`,
///   and after `sort` or `fields` field names (after `fields a,` the next one).
/// - `where` after a complete `set`, `unset`, `add`, `remove` or at `delete`'s REF;
///   after it, filters as for `list`.
///
/// Nothing else is ever offered: no file names where a command or field goes.
/// Candidates that need quoting are quoted (in the user's quote style when
/// they opened one), with control characters as `\u{…}` escapes, so whatever
/// a candidate holds, inserting or listing it cannot drive the terminal.
public enum Completer {
  /// The completions of the word that ends at `cursor` (in Unicode scalars).
  public static func complete(line: String, cursor: Int, context: CompletionContext) -> CompletionResult {
    let cursor = min(max(0, cursor), line.unicodeScalars.count)
    let partial = PartialCommand(line, cursor: cursor)
    let word = partial.current
    guard partial.isCompletable else {
      return CompletionResult(start: word.start, end: cursor, typed: word.raw, candidates: [])
    }
    let offers = Self.offers(for: partial, context)
    var seen: Set<String> = []
    var candidates: [CompletionResult.Candidate] = []
    for offer in offers where offer.matches(word.value) {
      let candidate = offer.rendered(style: word.quoteStyle)
      if seen.insert(candidate.text).inserted { candidates.append(candidate) }
    }
    candidates.sort { $0.text < $1.text }
    var result = CompletionResult(start: word.start, end: cursor, typed: word.raw, candidates: candidates)
    result.note = note(for: partial, context).map(TextCell.escaped)
    return result
  }

  /// Where the cursor's word is in its command: the argument kind, the word's place among
  /// the words of that kind, and the word before it; `nil` before or without a command.
  private static func argument(of partial: PartialCommand) -> (
    kind: CommandSpec.ArgumentKind, position: Int, previous: String
  )? {
    guard let first = partial.words.first, first.quoteStyle == nil, !first.isList,
      let spec = spec(named: first.value), !spec.arguments.isEmpty
    else { return nil }
    let index = partial.words.count - 1
    let slot = min(index, spec.arguments.count - 1)
    return (spec.arguments[slot], index - slot, partial.words.last?.value ?? "")
  }

  /// What the field whose value is being typed is for (its schema's description), to
  /// show beside the values a Tab lists.
  private static func note(for partial: PartialCommand, _ context: CompletionContext) -> String? {
    guard let (kind, position, previous) = argument(of: partial), case .fieldValuePairs = kind,
      !position.isMultiple(of: 2)
    else { return nil }
    return context.field(named: previous)?.about
  }

  /// Everything that could go where the cursor's word is, before matching what was typed.
  static func offers(for partial: PartialCommand, _ context: CompletionContext) -> [Offer] {
    guard !partial.words.isEmpty else { return commandNames }
    guard let (kind, position, previous) = argument(of: partial) else { return [] }
    // A bulk edit: filters after its bare `where`.
    if bulkCommands.contains(partial.words[0].value),
      partial.words.dropFirst().contains(where: { $0.value == "where" && $0.quoteStyle == nil })
    {
      return filterOffers(partial.current.value, context)
    }
    let offers = argumentOffers(kind, position, previous, partial, context)
    return offers + whereOffer(partial.words[0].value, kind, position)
  }

  /// The commands that take `where FILTER...`.
  private static let bulkCommands: Set<String> = ["set", "unset", "add", "remove", "delete"]

  /// `where` where a bulk edit's filters may start: after `set`'s pairs, `unset`'s field,
  /// `add`'s and `remove`'s element, or instead of `delete`'s REF.
  private static func whereOffer(_ command: String, _ kind: CommandSpec.ArgumentKind, _ position: Int)
    -> [Offer]
  {
    switch (command, kind) {
    case ("set", .fieldValuePairs) where position >= 2 && position.isMultiple(of: 2): [Offer("where")]
    case ("unset", _) where position == 1: [Offer("where")]
    case ("add", _) where position == 2, ("remove", _) where position == 2: [Offer("where")]
    case ("delete", _) where position == 0: [Offer("where")]
    default: []
    }
  }

  private static func argumentOffers(
    _ kind: CommandSpec.ArgumentKind, _ position: Int, _ previous: String, _ partial: PartialCommand,
    _ context: CompletionContext
  ) -> [Offer] {
    switch kind {
    case .none, .name, .count:
      return []
    case .keyword(let words):
      return position == 0 ? words.map { Offer($0) } : []
    case .ref:
      // Filtered first: a file may hold a million ids.
      let typed = partial.current.value.unicodeScalars
      guard position == 0 else { return [] }
      return context.recordIDs().filter { $0.unicodeScalars.starts(with: typed) }.map { Offer($0) }
    case .field:
      return position == 0 ? clearableFields(context) : []
    case .fieldValuePairs(let customFields):
      if position.isMultiple(of: 2) { return settableFields(context, custom: customFields) }
      return values(of: previous, context)
    case .listFieldElement(let fromSelected):
      switch position {
      case 0: return context.fields.filter(\.isList).map { Offer($0.name) }
      case 1:
        let elements = fromSelected ? context.selectedListElements(previous) : context.listElements(previous)
        return elements.map { Offer($0, isText: true) }
      default: return []
      }
    case .filter:
      return queryOffers(partial, position: position, context)
    case .file:
      return position == 0 ? paths(partial.current.value, context) : []
    case .command:
      return position == 0 ? commandNames : []
    }
  }

  /// The command table entry for a typed name, `save!` included.
  private static func spec(named name: String) -> CommandSpec? {
    if let spec = CommandTable.spec(named: name) { return spec }
    guard name.hasSuffix("!"), let spec = CommandTable.spec(named: String(name.dropLast())), spec.hasForceForm
    else { return nil }
    return spec
  }

  private static var commandNames: [Offer] {
    CommandTable.allNames.map { Offer($0) }
  }

  private static func settableFields(_ context: CompletionContext, custom: Bool) -> [Offer] {
    let declared = context.fields.filter { !$0.isReadOnly }.map { Offer($0.name) }
    return custom ? declared + context.customFields.map { Offer($0) } : declared
  }

  private static func clearableFields(_ context: CompletionContext) -> [Offer] {
    context.fields.filter { !$0.isReadOnly && $0.type.isOptional }.map { Offer($0.name) }
      + context.customFields.map { Offer($0) }
  }

  /// Values worth offering for field `name`: its codec's (`true`/`false`, `null`, 0–5).
  private static func values(of name: String, _ context: CompletionContext) -> [Offer] {
    (context.field(named: name)?.values ?? []).map { Offer($0) }
  }

  /// `list`, `count` and `assert`: filters; for `list` its clauses, and after `sort` or
  /// `fields` the fields.
  private static func queryOffers(_ partial: PartialCommand, position: Int, _ context: CompletionContext)
    -> [Offer]
  {
    let command = partial.words[0].value
    let isList = command == "list" || command == "ls"
    let previous = partial.words.count > 1 ? partial.words[partial.words.count - 1] : nil
    let clause = previous?.quoteStyle == nil ? previous?.value : nil
    switch clause {
    case "sort"? where isList:
      let names = queryFieldNames(context)
      return names.map { Offer($0) } + names.map { Offer("-" + $0) }
    case "fields"? where isList:
      let typed = partial.current.value
      let prefix = typed.lastIndex(of: ",").map { String(typed[...$0]) } ?? ""
      return queryFieldNames(context).map { Offer($0, prefix: prefix) }
    case "limit"? where isList: return []
    default:
      let takesWhere = position == 0 && (isList || command == "count")
      let keywords = (isList ? ["sort", "limit", "fields"] : []) + (takesWhere ? ["where"] : [])
      return filterOffers(partial.current.value, context) + keywords.map { Offer($0) }
    }
  }

  private static func queryFieldNames(_ context: CompletionContext) -> [String] {
    context.fields.map(\.name) + context.customFields + context.documentCustomFields()
  }

  /// Filters: `FIELD=` for any field a record may have; after the operator (`=`, or one
  /// typed: `!=`, `<`, `<=`, `>`, `>=`, `~`), the field's values, or for a list field the
  /// elements the document holds.
  private static func filterOffers(_ typed: String, _ context: CompletionContext) -> [Offer] {
    guard let start = typed.firstIndex(where: { "=!<>~".contains($0) }) else {
      return queryFieldNames(context).map { Offer($0 + "=", isComplete: false) }
    }
    let name = String(typed[..<start])
    var end = typed.index(after: start)
    if end < typed.endIndex, typed[end] == "=" { end = typed.index(after: end) }
    let prefix = String(typed[..<end])
    guard let field = context.field(named: name) else { return [] }
    if field.isList {
      return context.listElements(name).map { Offer($0, prefix: prefix, isText: true) }
    }
    // Only `=`, `==` and `!=` compare with null.
    let takesNull = prefix.hasSuffix("=") && !prefix.hasSuffix("<=") && !prefix.hasSuffix(">=")
    return field.values.filter { takesNull || $0 != "null" }.map { Offer($0, prefix: prefix) }
  }

  /// Paths that extend `typed`: the entries of its folder whose names start
  /// with what follows the last `/`. Hidden names only when asked for with a `.`.
  private static func paths(_ typed: String, _ context: CompletionContext) -> [Offer] {
    let folder: String
    let name: Substring
    if let slash = typed.lastIndex(of: "/") {
      folder = String(typed[...slash])
      name = typed[typed.index(after: slash)...]
    } else {
      folder = ""
      name = typed[...]
    }
    return context.listDirectory(folder).compactMap { entry in
      guard entry.name != ".", entry.name != "..", !entry.name.hasPrefix(".") || name.hasPrefix(".") else {
        return nil
      }
      return entry.isDirectory
        ? Offer(folder + entry.name + "/", isComplete: false) : Offer(folder + entry.name)
    }
  }
}

/// One thing completion could offer: `prefix` + `value`, where only the value
/// is quoted when needed (a filter's `done=` stays bare).
struct Offer: Equatable {
  var prefix: String
  var value: String
  var isComplete: Bool
  /// A string value (a list element), which must be quoted to mean the word `null`.
  var isText: Bool

  init(_ value: String, prefix: String = "", isComplete: Bool = true, isText: Bool = false) {
    self.prefix = prefix
    self.value = value
    self.isComplete = isComplete
    self.isText = isText
  }

  /// Whether it extends what was typed (compared by meaning, quotes resolved).
  func matches(_ typedValue: String) -> Bool {
    (prefix + value).unicodeScalars.starts(with: typedValue.unicodeScalars)
  }

  func rendered(style: Unicode.Scalar?) -> CompletionResult.Candidate {
    CompletionResult.Candidate(
      prefix + ShellQuoting.quoted(value, style: style, closed: isComplete, isText: isText),
      isComplete: isComplete)
  }
}
