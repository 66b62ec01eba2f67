/// A line split into commands as far as it could be read: the commands before the first
/// error, and that error.
///
/// The script runner parses and runs each command only when the commands before it have
/// run, so `use k3x9; set color blue` finds the custom field `color` of the record the
/// `use` selected, exactly as the two commands on two lines would. A line whose text breaks
/// off (a bad escape in its third command, say) runs the commands before the break, then
/// fails at it, as separate lines would; the text after the break is not run.
struct TokenizedLine: Equatable, Sendable {
  /// The whole commands before `error`, in order (all of them when there is none).
  var commands: [TokenizedCommand]
  /// The first error, if any; nothing after it was read.
  var error: TokenizerError?

  /// Whether the line ends inside an open quote or list, so that the next line should be
  /// joined on with "\n" before the line is run. Any other error gives `false`: more input
  /// cannot fix it.
  var needsContinuation: Bool {
    error?.reason == .unterminatedString || error?.reason == .unterminatedList
  }
}
