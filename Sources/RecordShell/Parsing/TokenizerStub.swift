// TEMPORARY: replaced by the real tokenizer at merge.
import RecordKit

public struct Token: Equatable, Sendable {
  public var value: ValueToken
  public var column: Int
}

public struct TokenizedCommand: Equatable, Sendable { public var tokens: [Token] }

public struct TokenizerError: Error, Equatable, Sendable, CustomStringConvertible {
  public var description: String { "bad" }
}

public enum Tokenizer {
  public static func needsContinuation(_ line: String) -> Bool { false }
  public static func tokenize(_ line: String) throws(TokenizerError) -> [TokenizedCommand] {
    line.split(separator: ";").map { part in
      TokenizedCommand(
        tokens: part.split(separator: " ").map { word in
          Token(value: word.hasPrefix("\"") ? .quoted(String(word.dropFirst().dropLast())) : .word(String(word)), column: 1)
        })
    }.filter { !$0.tokens.isEmpty }
  }
}
