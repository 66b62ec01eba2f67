import CPCRE2

/// What matching one value against a pattern gave.
package enum PatternMatch: Equatable, Sendable {
  case match
  case noMatch
  /// The match reached its bound (steps, stack or memory) before an answer: neither a
  /// match nor a non-match can be claimed.
  case tooCostly
}

/// A PCRE2 program compiled from an ECMA-262 pattern: the one owner of its C handles (the
/// code, its match context, JIT stack, match data and step counter), freed once, when it
/// goes.
///
/// Every match is bounded, so that no pattern and value can make recsh hang: the program
/// is compiled with a callout before each of its items (`AUTO_CALLOUT`), and the callout
/// counts the steps of the whole search — every start position, every backtrack — and
/// stops it past `stepBudget(length:)`, a fixed part plus a part in proportion to the value. PCRE2's own match limit is no such bound: it counts per
/// start position, and JIT-compiled code counts only some backtracks (measured: seconds
/// for `(.*a){12}$` on 10,000 characters under a limit of a million). Measured here
/// (docs/PERFORMANCE.md), the classic catastrophic patterns against 10,000-character
/// values reach the budget in about 5 ms with PCRE2's JIT (about 20 ms in its interpreter,
/// used where there is no JIT or a match outgrows the JIT stack), while ordinary patterns
/// match short values in well under a microsecond and 100,000-character values in a few
/// milliseconds.
///
/// Not `Sendable`: a match writes the match data and the counter it keeps.
final class CompiledPattern {
  /// A PCRE2 compile error, in PCRE2's words.
  struct CompileError: Error, Equatable {
    var problem: String
  }

  /// Callouts a search of `length` bytes may make before it is called too costly: a
  /// fixed part and a part in proportion to the value, so that a long value an ordinary
  /// pattern walks once (a few steps a character) matches, and any search of a 10,000-byte
  /// value ends within about 840,000 steps.
  static func stepBudget(length: Int) -> Int { 200_000 + 64 * length }
  /// PCRE2's own limits, a backstop behind the budget.
  static let engineMatchLimit: UInt32 = 10_000_000
  static let jitStackBytes = 8 << 20

  private let code: OpaquePointer
  private let matchData: OpaquePointer
  private let context: OpaquePointer
  /// `nil` where JIT compiling failed: the interpreter runs every match.
  private let jitStack: OpaquePointer?
  /// The steps of the search under way, counted by the C callout `recsh_pcre2_count_step`.
  private let steps: UnsafeMutablePointer<recsh_pcre2_steps>

  /// Compiles a pattern already in PCRE2's syntax (`ECMAPattern.pcre2`) as UTF-8, with `$`
  /// only at the very end, `[]` allowed, unset backreferences matching empty, ASCII
  /// `\d`/`\w`/`\b` (no `UCP`) and a callout before each item; JIT-compiles it where
  /// PCRE2 can.
  init(pcre2 source: String) throws(CompileError) {
    var errorCode: Int32 = 0
    var errorOffset = 0
    let options = UInt32(
      PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_ALLOW_EMPTY_CLASS | PCRE2_MATCH_UNSET_BACKREF
        | PCRE2_AUTO_CALLOUT)
    let compiled = Array(source.utf8).withUnsafeBufferPointer { bytes in
      pcre2_compile_8(bytes.baseAddress, bytes.count, options, &errorCode, &errorOffset, nil)
    }
    guard let compiled else { throw CompileError(problem: Self.message(errorCode)) }
    guard let matchData = pcre2_match_data_create_8(1, nil) else {
      pcre2_code_free_8(compiled)
      throw CompileError(problem: "out of memory")
    }
    guard let context = pcre2_match_context_create_8(nil) else {
      pcre2_match_data_free_8(matchData)
      pcre2_code_free_8(compiled)
      throw CompileError(problem: "out of memory")
    }
    code = compiled
    self.matchData = matchData
    self.context = context
    steps = .allocate(capacity: 1)
    steps.initialize(to: recsh_pcre2_steps(taken: 0, budget: 0))
    pcre2_set_match_limit_8(context, Self.engineMatchLimit)
    pcre2_set_depth_limit_8(context, Self.engineMatchLimit)
    pcre2_set_callout_8(context, recsh_pcre2_count_step, steps)
    if pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0,
      let stack = pcre2_jit_stack_create_8(32 << 10, Self.jitStackBytes, nil)
    {
      pcre2_jit_stack_assign_8(context, nil, UnsafeMutableRawPointer(stack))
      jitStack = stack
    } else {
      jitStack = nil
    }
  }

  deinit {
    pcre2_match_data_free_8(matchData)
    pcre2_match_context_free_8(context)
    if let jitStack { pcre2_jit_stack_free_8(jitStack) }
    pcre2_code_free_8(code)
    steps.deinitialize(count: 1)
    steps.deallocate()
  }

  /// Whether JIT compiling succeeded (it does wherever PCRE2 was built with its JIT).
  var isJIT: Bool { jitStack != nil }

  /// Searches `text` for a match anywhere (JSON Schema patterns are not anchored).
  /// Costs at most the bound described on the type.
  func match(_ text: String) -> PatternMatch {
    var text = text
    return text.withUTF8 { match($0, jit: true) }
  }

  /// `match(_:)` of UTF-8 bytes, which must be valid UTF-8.
  func match(utf8 bytes: UnsafeBufferPointer<UInt8>) -> PatternMatch {
    match(bytes, jit: true)
  }

  /// `match(_:)` by the interpreter alone, as a match whose JIT stack ran out is retried.
  func matchWithoutJIT(_ text: String) -> PatternMatch {
    var text = text
    return text.withUTF8 { match($0, jit: false) }
  }

  /// Searches UTF-8 bytes, which must be valid UTF-8 (PCRE2's own check is skipped).
  private func match(_ bytes: UnsafeBufferPointer<UInt8>, jit: Bool) -> PatternMatch {
    let empty: UInt8 = 0
    return withUnsafePointer(to: empty) { nothing in
      let start = bytes.baseAddress ?? nothing
      steps.pointee.budget = Self.stepBudget(length: bytes.count)
      if jit, isJIT {
        steps.pointee.taken = 0
        let result = pcre2_match_8(
          code, start, bytes.count, 0, UInt32(PCRE2_NO_UTF_CHECK), matchData, context)
        if result != PCRE2_ERROR_JIT_STACKLIMIT { return Self.outcome(result) }
      }
      steps.pointee.taken = 0
      let options = UInt32(PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT)
      return Self.outcome(pcre2_match_8(code, start, bytes.count, 0, options, matchData, context))
    }
  }

  /// A match (a count of pairs, or 0 when the data had too few: still a match), no match,
  /// or a bound reached (any other error: the step budget, memory, depth).
  private static func outcome(_ result: Int32) -> PatternMatch {
    if result >= 0 { return .match }
    return result == PCRE2_ERROR_NOMATCH ? .noMatch : .tooCostly
  }

  private static func message(_ code: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 256)
    let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
    guard length > 0 else { return "error \(code)" }
    return String(decoding: buffer[..<Int(length)], as: UTF8.self)
  }
}
