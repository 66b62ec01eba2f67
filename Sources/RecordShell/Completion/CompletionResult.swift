/// What a Tab at the cursor can do: the word it completes and what may replace it.
///
/// Offsets count Unicode scalars, as libedit's do, so a line with `café` before
/// the cursor completes at the right place.
public struct CompletionResult: Equatable, Sendable {
  /// One thing that can replace the word, already quoted as it must be typed.
  public struct Candidate: Equatable, Sendable {
    public var text: String
    /// Whether a unique match is finished and gets a trailing space: not for a
    /// folder (`docs/`) or a filter field (`done=`), which go on.
    public var isComplete: Bool

    init(_ text: String, isComplete: Bool = true) {
      self.text = text
      self.isComplete = isComplete
    }
  }

  /// Where the word being completed starts; the candidates replace
  /// `start..<end`.
  public var start: Int
  /// The cursor: a Tab completes the text before it.
  public var end: Int
  /// The word as typed, `start..<end` of the line.
  var typed: String
  /// Sorted, without duplicates.
  public var candidates: [Candidate]
  /// What the field being given a value is for (a schema's `description`), listed with
  /// the candidates, control characters escaped as `show` escapes them; `nil` when there
  /// is nothing to say.
  public var note: String?

  /// What replaces the typed word: the one candidate (with a space when it is
  /// complete), or the candidates' longest common prefix when that says more
  /// than what was typed; `nil` when a Tab can only list the candidates.
  public var replacement: String? {
    if candidates.count == 1, let only = candidates.first {
      return only.text + (only.isComplete ? " " : "")
    }
    guard let first = candidates.first?.text.unicodeScalars else { return nil }
    var common = first.count
    for candidate in candidates.dropFirst() {
      common = min(common, zip(first, candidate.text.unicodeScalars).prefix { $0 == $1 }.count)
    }
    var prefix = String.UnicodeScalarView()
    prefix.append(contentsOf: first.prefix(common))
    let text = String(prefix)
    guard text != typed, let value = PartialCommand.value(of: text),
      let typedValue = PartialCommand.value(of: typed),
      value.unicodeScalars.starts(with: typedValue.unicodeScalars),
      value.unicodeScalars.count > typedValue.unicodeScalars.count
        || text.unicodeScalars.count > typed.unicodeScalars.count
    else { return nil }
    return text
  }

  /// `line` with the replacement applied, and the cursor after it; the line
  /// itself when there is nothing to apply. What one Tab does, for tests.
  func applied(to line: String) -> (line: String, cursor: Int) {
    guard let replacement else { return (line, end) }
    let scalars = Array(line.unicodeScalars)
    var result = String.UnicodeScalarView()
    result.append(contentsOf: scalars[..<start])
    result.append(contentsOf: replacement.unicodeScalars)
    result.append(contentsOf: scalars[end...])
    return (String(result), start + replacement.unicodeScalars.count)
  }
}
