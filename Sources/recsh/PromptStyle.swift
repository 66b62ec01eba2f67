import Glibc
import RecordShell

/// How the prompt looks: colour only on a terminal that has it, and never
/// with `NO_COLOR` (https://no-color.org: set and not empty) or `TERM=dumb`.
///
/// Each escape sequence is wrapped in libedit's ignore markers (`\u{1}` …
/// `\u{2}`), so libedit does not count it as width and the cursor stays right.
/// The parts come escaped from `Prompt`, so no marker or control character of
/// a file or group name can reach the terminal.
struct PromptStyle {
  var colour: Bool

  static var current: PromptStyle {
    let noColour = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
    let dumb = getenv("TERM").map { String(cString: $0) == "dumb" } ?? true
    return PromptStyle(colour: isatty(1) == 1 && !noColour && !dumb)
  }

  /// The continuation prompt, after a line that ends inside a quote or list.
  var continuation: String { colour ? Self.paint("...", "2") + "> " : "...> " }

  func render(_ prompt: Prompt) -> String {
    guard colour else { return prompt.text }
    var text = Self.paint(prompt.fileName, "1")
    if let selectedID = prompt.selectedID { text += " " + Self.paint(selectedID, "36") }
    if prompt.isDirty { text += Self.paint("*", "1;33") }
    if let group = prompt.groupText { text += " " + Self.paint("(\(group))", "35") }
    return text + "> "
  }

  private static func paint(_ text: String, _ code: String) -> String {
    "\u{1}\u{1b}[\(code)m\u{2}" + text + "\u{1}\u{1b}[0m\u{2}"
  }
}
