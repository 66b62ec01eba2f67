import RecordKit

/// The arguments of one command, read left to right by its parse function.
struct ArgumentCursor {
  let command: String
  let usage: String
  private let tokens: [Token]
  private var index = 0

  init(command: String, usage: String, tokens: [Token]) {
    self.command = command
    self.usage = usage
    self.tokens = tokens
  }

  var isAtEnd: Bool { index == tokens.count }

  /// The arguments not read yet, all of them (they are then read).
  mutating func rest() -> [Token] {
    defer { index = tokens.count }
    return Array(tokens[index...])
  }

  /// Whether the next argument names a record rather than being a filter (`assert`).
  func peekIsRef() -> Bool {
    guard index < tokens.count else { return false }
    return !Self.isFilter(tokens[index])
  }

  /// Whether a bare `word` is among the arguments not read yet (`where` makes a bulk edit).
  func hasKeyword(_ word: String) -> Bool {
    tokens[index...].contains { $0.value == .word(word) }
  }

  mutating func next() -> Token? {
    guard index < tokens.count else { return nil }
    index += 1
    return tokens[index - 1]
  }

  /// The next argument, which must be there.
  mutating func value() throws(ParseError) -> ValueToken {
    guard let token = next() else { throw .missingArgument(command: command, usage: usage) }
    return token.value
  }

  /// The next argument as a name: a word or a quoted string, not a list.
  mutating func word() throws(ParseError) -> String {
    let value = try value()
    switch value {
    case .word(let text), .quoted(let text): return text
    case .list: throw .expectedWord(command: command, found: value.description)
    }
  }

  mutating func optionalWord() throws(ParseError) -> String? {
    isAtEnd ? nil : try word()
  }

  /// An optional positive count (`undo 3`), 1 by default.
  mutating func count() throws(ParseError) -> Int {
    guard let text = try optionalWord() else { return 1 }
    guard let count = Int(text), count > 0 else { throw .badCount(command: command, found: text) }
    return count
  }

  /// The span of `earlier`/`later`: `30s`, `10m`, `2h`, `3d`, or `1save`/`2saves` (also
  /// `1f`, as vim writes it), and nothing after it.
  mutating func span() throws(ParseError) -> HistorySpan {
    guard let text = try optionalWord() else { throw .missingArgument(command: command, usage: usage) }
    try end()
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    let unit = text.dropFirst(digits.count)
    guard !digits.isEmpty, let amount = Int(digits), amount > 0 else {
      throw .badSpan(command: command, found: text)
    }
    switch unit {
    case "s": return .seconds(Double(amount))
    case "m": return .seconds(Double(amount) * 60)
    case "h": return .seconds(Double(amount) * 3600)
    case "d": return .seconds(Double(amount) * 86400)
    case "save", "saves", "f": return .saves(amount)
    default: throw .badSpan(command: command, found: text)
    }
  }

  /// A state for `diff`: a step number, `saved`, `now`, `start` or a time back (`10m`).
  mutating func historyPoint() throws(ParseError) -> HistoryPoint? {
    guard let text = try optionalWord() else { return nil }
    switch text {
    case "saved": return .saved
    case "now": return .now
    case "start": return .start
    default:
      if let step = Int(text), step >= 0 { return .step(step) }
      let digits = text.prefix { $0.isASCII && $0.isNumber }
      let unit = text.dropFirst(digits.count)
      let scale: Double? = ["s": 1, "m": 60, "h": 3600, "d": 86400][String(unit)]
      guard !digits.isEmpty, let amount = Int(digits), let scale else { throw .badState(found: text) }
      return .ago(Double(amount) * scale)
    }
  }

  /// The rest of the arguments, which must all have been read.
  func end() throws(ParseError) {
    if index < tokens.count {
      throw .unexpectedArgument(command: command, found: tokens[index].value.description, usage: usage)
    }
  }

  /// `FIELD VALUE` pairs to the end.
  mutating func assignments(_ context: ParseContext) throws(ParseError) -> [FieldAssignment] {
    var result: [FieldAssignment] = []
    while !isAtEnd {
      let name = try word()
      let field = try context.field(name)
      if context.readOnlyFields.contains(field.name),
        !(command == "new" && field.name == context.keyGivenByNew)
      {
        throw .field(.readOnly(field.name))
      }
      guard let token = next() else { throw .missingValue(command: command, field: name) }
      result.append(FieldAssignment(field.name, token.value, createsCustomField: field.createsCustom))
    }
    return result
  }
}
