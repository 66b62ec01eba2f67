/// The tokens of one command; a line may hold several, separated by `;`.
///
/// A type of its own rather than `[Token]` so that `[TokenizedCommand]` reads as what it
/// is, and so that more about a command (its source text, say) can join it later.
public struct TokenizedCommand: Equatable, Sendable {
  /// The command's tokens, in order; never empty (blank commands are dropped).
  var tokens: [Token]

  init(_ tokens: [Token]) {
    self.tokens = tokens
  }
}
