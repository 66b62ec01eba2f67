import RecordKit

#if canImport(Glibc)
  import Glibc
#endif

/// `history`: the steps oldest first with number, name and time; where the
/// document is now, where it was saved, and which steps can be redone.
enum HistoryRenderer {
  static func render<Root: Record>(_ history: History<Root>) -> String {
    var lines: [String] = []
    if history.droppedCount > 0 {
      lines.append(
        "(\(history.droppedCount) older step\(history.droppedCount == 1 ? "" : "s") dropped "
          + "by the undo limit of \(history.limit))")
    }
    let steps = history.keptSteps
    if steps.isEmpty && history.openGroups.isEmpty { return "no undo steps yet" }
    let width = String(steps.last?.number ?? 0).count
    let nameWidth = steps.map(\.step.command.name.count).max() ?? 0
    if history.savePosition == history.droppedCount && history.droppedCount == 0 {
      lines.append("   " + String(repeating: " ", count: width) + "  (start)  [saved]")
    }
    for (number, step) in steps {
      var marks: [String] = []
      if number == history.position { marks.append("<- now") }
      if number == history.savePosition { marks.append("[saved]") }
      if number > history.position { marks.append("(can redo)") }
      let current = number == history.position ? ">" : " "
      let numberText = String(repeating: " ", count: width - String(number).count) + String(number)
      var line =
        " \(current) \(numberText)  \(TextCell.padded(step.command.name, to: nameWidth))  \(clock(step.time))"
      if !marks.isEmpty { line += "  " + marks.joined(separator: " ") }
      lines.append(line)
    }
    if history.position == history.droppedCount && !steps.isEmpty {
      lines.append("   (everything above is undone)")
    }
    for group in history.openGroups {
      let count = group.commands.reduce(0) { $0 + $1.changeCount }
      lines.append(
        "   open group \(group.displayName)\(group.origin.map { " (opened at \($0))" } ?? ""): "
          + "\(count) change\(count == 1 ? "" : "s") so far")
    }
    return lines.joined(separator: "\n")
  }

  /// Local wall-clock time of a step, `HH:MM:SS`.
  static func clock(_ time: Double) -> String {
    var seconds = time_t(time)
    var parts = tm()
    localtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
  }
}
