import RecordKit

/// One shell command as the command table declares it: the single source for
/// parsing, `help` and tab completion.
struct CommandSpec: Sendable {
  let name: String
  let aliases: [String]
  /// Arguments as `help` shows them: `[FIELD VALUE]...`.
  let usage: String
  let summary: String
  let examples: [String]
  /// What goes in each argument position, for completion.
  let arguments: [ArgumentKind]
  /// Whether `NAME!` exists (it overrides a safety check).
  let hasForceForm: Bool
  let parse: @Sendable (inout ArgumentCursor, ParseContext) throws(ParseError) -> ShellCommand

  /// What an argument position holds. The last one repeats.
  enum ArgumentKind: Sendable, Equatable {
    case none
    case ref
    case field
    /// A field, then a value for it, repeated. `customFields`: whether the
    /// selected record's custom fields can be named (`set`), or only declared
    /// ones (`new`, whose record has none yet).
    case fieldValuePairs(customFields: Bool)
    /// A list field, then one element: one the selected record has
    /// (`remove`), or any the document has (`add`).
    case listFieldElement(fromSelected: Bool)
    case filter
    case file
    case command
    case name
    case count
    /// One of a few words (`history all`, `history clear`).
    case keyword([String])
  }
}

/// What the parser needs to know besides the text: the kind's field table (as
/// names) and the selected record's custom keys, so field references are
/// resolved and typos caught before anything runs.
public struct ParseContext: Sendable {
  var declaredFields: [String]
  var readOnlyFields: Set<String>
  var listFields: Set<String>
  var customFields: [String]
  /// The kind's key (`id` for tasks and contacts): read-only for `set`, but `new` takes
  /// its value, so that a record can be made again with the key it had.
  var keyGivenByNew: String?

  /// Cheap enough for every line: the kind's names are computed once, in its
  /// field table; only the selected record's custom keys are read here.
  init<Root: Record>(kind: Root.Type, selected: Root?) {
    let table = Root.fields
    declaredFields = table.names
    readOnlyFields = table.readOnlyNames
    listFields = table.listNames
    keyGivenByNew = table.key?.name
    customFields = selected.map { $0.custom.isEmpty ? [] : $0.custom.keys } ?? []
  }

  /// The same, from the selected record's custom keys (no copy of the record).
  public init<Root: Record>(kind: Root.Type, customFields: [String]) {
    let table = Root.fields
    declaredFields = table.names
    readOnlyFields = table.readOnlyNames
    listFields = table.listNames
    keyGivenByNew = table.key?.name
    self.customFields = customFields
  }

  /// Checks a field name: declared or a custom key of the selected record;
  /// otherwise an error with a suggestion. `+name` is the explicit new-custom form.
  func field(_ word: String) throws(ParseError) -> (name: String, createsCustom: Bool) {
    if word.hasPrefix("+"), word.count > 1 { return (String(word.dropFirst()), true) }
    if declaredFields.contains(word) || customFields.contains(word) { return (word, false) }
    let suggestion = Suggestion.closest(to: word, among: declaredFields + customFields)
    throw .field(.unknownField(word, suggestion: suggestion))
  }

  /// A field to filter `list` by: any record may have a custom key, so an
  /// unknown name is taken as one, unless it looks like a typo of a declared field.
  func filterField(_ word: String) throws(ParseError) -> String {
    if declaredFields.contains(word) || customFields.contains(word) { return word }
    if let suggestion = Suggestion.closest(to: word, among: declaredFields) {
      throw .field(.unknownField(word, suggestion: suggestion))
    }
    return word
  }
}
