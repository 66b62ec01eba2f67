import RecordKit

/// Lists: `[a, "b c", [d]]`. Open lists wait on a stack in the scanner, each with its
/// elements so far and whether a comma or an element comes next; that state is what
/// tells a trailing comma, a doubled comma and a missing comma apart.
extension TokenScanner {
  /// Refuses a value that would follow a list element with no comma between them.
  func checkCanStartValue(at start: Position) throws(TokenizerError) {
    if let list = lists.last, list.afterElement { throw error(.missingComma, at: start) }
  }

  mutating func openList() throws(TokenizerError) {
    let start = position
    try checkCanStartValue(at: start)
    guard lists.count < Self.maxListDepth else {
      throw error(.tooDeep(limit: Self.maxListDepth), at: start)
    }
    lists.append(OpenList(start: start))
    index += 1
  }

  mutating func closeList() throws(TokenizerError) {
    guard let list = lists.popLast() else { throw error(.unexpectedClosingBracket, at: position) }
    if let comma = list.pendingComma { throw error(.trailingComma, at: comma) }
    index += 1
    if index < bytes.count {
      switch bytes[index] {
      case ASCII.space, ASCII.tab, ASCII.carriageReturn, ASCII.lineFeed, ASCII.semicolon, ASCII.closeBracket:
        break
      case ASCII.comma where !lists.isEmpty: break
      default: throw error(.unexpectedAfterList(scalar(at: index)), at: position)
      }
    }
    add(.list(list.elements), at: list.start)
  }

  mutating func readComma() throws(TokenizerError) {
    let start = position
    guard lists[lists.count - 1].afterElement else { throw error(.unexpectedInList(","), at: start) }
    lists[lists.count - 1].afterElement = false
    lists[lists.count - 1].pendingComma = start
    index += 1
  }
}
