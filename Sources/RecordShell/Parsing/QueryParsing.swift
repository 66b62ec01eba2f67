import RecordKit

/// The query language of `list`, `count` and the bulk edits: filters (`FIELD OP VALUE`)
/// and, for `list`, `sort [-]FIELD`, `limit N` and `fields F1,F2`.
///
/// A word of the language (`where`, `sort`, `limit`, `fields`) is one only when typed bare;
/// a field of that name, or one holding a space, is typed in double quotes
/// (`"sort"=3`, `sort "sort"`). A filter's operator is found only outside quotes, so
/// `"a=b"=1` filters the field `a=b`.
extension ArgumentCursor {
  /// The words that start a clause rather than a filter.
  static let queryKeywords: Set<String> = ["where", "sort", "limit", "fields"]

  /// Whether the token is the bare keyword `word`.
  static func isKeyword(_ token: Token, _ word: String) -> Bool {
    token.value == .word(word)
  }

  /// The rest of the line as `list`'s filters and clauses, in any order.
  mutating func query(_ context: ParseContext) throws(ParseError) -> RecordQuery {
    var query = RecordQuery()
    var first = true
    while let token = next() {
      defer { first = false }
      switch token.value {
      // `list where done=false` reads as well as `list done=false`.
      case .word("where") where first: continue
      case .word("sort"):
        guard let keys = next() else { throw .missingArgument(command: command, usage: usage) }
        for name in try Self.names(keys, what: "sort") {
          let descending = name.hasPrefix("-") && name.count > 1
          query.sort.append(
            (try context.filterField(descending ? String(name.dropFirst()) : name), descending))
        }
      case .word("limit"):
        guard let text = next()?.value else { throw .missingArgument(command: command, usage: usage) }
        guard case .word(let word) = text, let limit = Int(word), limit >= 0 else {
          throw .badLimit(found: text.description)
        }
        query.limit = limit
      case .word("fields"):
        guard let names = next() else { throw .missingArgument(command: command, usage: usage) }
        var fields: [String] = []
        for name in try Self.names(names, what: "fields") { fields.append(try context.filterField(name)) }
        query.fields = fields
      default:
        query.filters.append(try filter(token, context))
      }
    }
    return query
  }

  /// Filters to the end of the line (`count`, and after a bulk edit's `where`), at least
  /// one when `required`.
  mutating func filters(_ context: ParseContext, required: Bool) throws(ParseError) -> [ListFilter] {
    var filters: [ListFilter] = []
    var first = true
    while let token = next() {
      defer { first = false }
      if first, !required, Self.isKeyword(token, "where") { continue }
      filters.append(try filter(token, context))
    }
    if required, filters.isEmpty { throw .missingFilter(command: command) }
    return filters
  }

  /// Whether `byte` is one an operator is made of: `=`, `!`, `<`, `>`, `~`.
  @inline(__always)
  static func isOperatorByte(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "=") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "<")
      || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "~")
  }

  /// Whether a token is a filter (it has an operator outside quotes), not a REF.
  static func isFilter(_ token: Token) -> Bool {
    switch token.value {
    case .list: return false
    case .word(let text), .quoted(let text):
      let parts = token.parts.isEmpty ? [WordPart(text, isQuoted: token.value != .word(text))] : token.parts
      return parts.contains { !$0.isQuoted && $0.text.utf8.contains(where: isOperatorByte) }
    }
  }

  /// Comma-separated names (`due,-priority`): none empty.
  private static func names(_ token: Token, what: String) throws(ParseError) -> [String] {
    let text: String
    switch token.value {
    case .word(let word), .quoted(let word): text = word
    case .list: throw .badNames(clause: what, found: token.value.description)
    }
    // A quoted name is one name, commas and all.
    if case .quoted = token.value, token.parts.isEmpty {
      guard !text.isEmpty else { throw .badNames(clause: what, found: "\"\"") }
      return [text]
    }
    let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard !names.contains(where: { $0.isEmpty || $0 == "-" }) else {
      throw .badNames(clause: what, found: text)
    }
    return names
  }

  /// One filter token: `FIELD OP VALUE`, the operator outside quotes; `title= "a b"`
  /// (nothing after the operator) takes the next token as the value.
  mutating func filter(_ token: Token, _ context: ParseContext) throws(ParseError) -> ListFilter {
    let parts: [WordPart]
    switch token.value {
    case .word(let text): parts = token.parts.isEmpty ? [WordPart(text, isQuoted: false)] : token.parts
    case .quoted(let text): parts = token.parts.isEmpty ? [WordPart(text, isQuoted: true)] : token.parts
    case .list: throw .badFilter(token.value.description)
    }
    // The first operator character outside quotes.
    var name = ""
    var nameQuoted = false
    var found: (part: Int, index: String.Index)?
    for (number, part) in parts.enumerated() {
      // (By bytes: every operator is ASCII, and a UTF-8 index is a String index.)
      if !part.isQuoted, let index = part.text.utf8.firstIndex(where: Self.isOperatorByte) {
        name += part.text[..<index]
        found = (number, index)
        break
      }
      name += part.text
      nameQuoted = nameQuoted || part.isQuoted
    }
    guard let found, !name.isEmpty else { throw .badFilter(token.value.description) }
    let text = parts[found.part].text
    let rest = text[found.index...]
    let op: FilterOperator
    if rest.hasPrefix("==") {
      op = .exactly
    } else if rest.hasPrefix("!=") {
      op = .notEqual
    } else if rest.hasPrefix("<=") {
      op = .lessOrEqual
    } else if rest.hasPrefix(">=") {
      op = .greaterOrEqual
    } else if let single = FilterOperator(rawValue: String(rest.prefix(1))), single != .notEqual {
      op = single
    } else {
      throw .badFilter(token.value.description)
    }
    let after = rest.dropFirst(op.rawValue.count)
    let following = parts.dropFirst(found.part + 1)
    // Two operators in a row (`priority>>3`) are a typo, not a value starting with one.
    if let next = after.first, "=<>~!".contains(next) { throw .badOperator(token.value.description) }
    var valueText = String(after)
    var valueQuoted = false
    for part in following {
      valueText += part.text
      valueQuoted = valueQuoted || part.isQuoted
    }
    var value: ValueToken = valueQuoted ? .quoted(valueText) : .word(valueText)
    if valueText.isEmpty, !valueQuoted {
      guard let next = next() else { throw .missingFilterValue(token.value.description) }
      value = next.value
    }
    let field = nameQuoted ? name : try context.filterField(name)
    guard value == .word("null") else { return ListFilter(field: field, op: op, operand: .value(value)) }
    guard op == .equal || op == .exactly || op == .notEqual else {
      throw .nullOrdered(token.value.description)
    }
    return ListFilter(field: field, op: op, operand: .null)
  }

  /// A bulk edit's `FIELD VALUE` pairs up to `where`, then its filters: `set`'s and
  /// `new`'s field names, but any field a record may hold (checked when it runs).
  mutating func bulkAssignments(_ context: ParseContext) throws(ParseError) -> [BulkAssignment] {
    var result: [BulkAssignment] = []
    while let token = next() {
      if Self.isKeyword(token, "where") { return result }
      let word: String
      switch token.value {
      case .word(let text), .quoted(let text): word = text
      case .list: throw .expectedWord(command: command, found: token.value.description)
      }
      let creates = word.hasPrefix("+") && word.count > 1
      let name = creates ? String(word.dropFirst()) : try context.filterField(word)
      if context.readOnlyFields.contains(name) { throw .field(.readOnly(name)) }
      guard let value = next(), !Self.isKeyword(value, "where") else {
        throw .missingValue(command: command, field: word)
      }
      result.append(BulkAssignment(name, .set(value.value), createsCustomField: creates))
    }
    return result
  }
}
