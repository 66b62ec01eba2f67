/// Word wrapping for `help`: text broken at spaces into lines of at most a given width.
public enum TextWrap {
  /// `text` in lines of at most `width` characters: the first starts with `first`, the
  /// others with `rest` (a hanging indent). Words are never split: a word longer than a
  /// line stands alone on its line. Widths count `Character`s, which is the terminal's
  /// columns for the text `help` shows (no wide or combining characters).
  public static func wrap(_ text: String, width: Int, first: String = "", rest: String = "") -> [String] {
    var lines: [String] = []
    var line = first
    var lineHasWord = false
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if lineHasWord && line.count + 1 + word.count > width {
        lines.append(line)
        line = rest
        lineHasWord = false
      }
      line += (lineHasWord ? " " : "") + word
      lineHasWord = true
    }
    lines.append(line)
    return lines
  }
}
