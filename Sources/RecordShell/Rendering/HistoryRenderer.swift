import RecordKit

#if canImport(Glibc)
  import Glibc
#endif

/// `history`: the current branch's steps oldest first with number, name and time (and the
/// date, for a step not made today); where the document is now, where it was saved, and
/// which steps can be redone. `history all`: every kept step of the tree, each that does
/// not follow the one listed before it marked with the state it branches from.
enum HistoryRenderer {
  static func render<Root: Record>(_ history: History<Root>, all: Bool = false, now: Double) -> String {
    var lines: [String] = []
    if history.droppedCount > 0 {
      lines.append(
        "(\(history.droppedCount) older step\(history.droppedCount == 1 ? "" : "s") dropped "
          + "by the undo limit of \(history.limit))")
    }
    let steps = all ? history.keptSteps : history.branch
    if steps.isEmpty && history.openGroups.isEmpty {
      return (lines + ["no undo steps yet"]).joined(separator: "\n")
    }
    let width = String(steps.last?.number ?? 0).count
    let nameWidth = steps.map(\.command.name.count).max() ?? 0
    let ahead = Set(history.stepsAhead(Int.max))
    let current = history.current
    if history.savedState == history.start || (all && current == history.start) {
      var marks: [String] = []
      if current == history.start && all { marks.append("<- now") }
      if history.savedState == history.start { marks.append("[saved]") }
      lines.append(
        "   " + String(repeating: " ", count: width) + "  (start)  " + marks.joined(separator: " "))
    }
    let today = day(now)
    var previous = history.start
    for step in steps {
      let number = step.number
      var marks: [String] = []
      if number == current { marks.append("<- now") }
      if number == history.savedState { marks.append("[saved]") }
      if ahead.contains(number) { marks.append("(can redo)") }
      if all, step.parent != previous {
        marks.append(step.parent == history.start ? "(from the start)" : "(from \(step.parent))")
      }
      previous = number
      let pointer = number == current ? ">" : " "
      let numberText = String(repeating: " ", count: width - String(number).count) + String(number)
      let time = day(step.time) == today ? clock(step.time) : date(step.time) + " " + clock(step.time)
      var line = " \(pointer) \(numberText)  \(TextCell.padded(step.command.name, to: nameWidth))  \(time)"
      if !marks.isEmpty { line += "  " + marks.joined(separator: " ") }
      lines.append(line)
    }
    if !all && current == history.start && !steps.isEmpty {
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

  /// A step's time as `history` shows it: the clock today, the date and clock before.
  static func when(_ time: Double, now: Double) -> String {
    day(time) == day(now) ? clock(time) : date(time) + " " + clock(time)
  }

  /// The local calendar day of a time, as a number (year, month, day).
  static func day(_ time: Double) -> Int {
    let parts = local(time)
    return Int(parts.tm_year) * 10_000 + Int(parts.tm_mon) * 100 + Int(parts.tm_mday)
  }

  /// Local date of a step, `YYYY-MM-DD`.
  static func date(_ time: Double) -> String {
    let parts = local(time)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
  }

  private static func local(_ time: Double) -> tm {
    var seconds = time_t(time)
    var parts = tm()
    localtime_r(&seconds, &parts)
    return parts
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

extension HistoryRenderer {
  /// The columns `history` shows, for the machine formats: one row per step (the start
  /// is not a step), with its local date and time in full.
  static func rows<Root: Record>(_ history: History<Root>, all: Bool) -> (
    columns: [String], rows: [[JSONValue?]]
  ) {
    let steps = all ? history.keptSteps : history.branch
    let ahead = Set(history.stepsAhead(Int.max))
    let columns = ["step", "name", "time", "now", "saved", "can_redo"] + (all ? ["from"] : [])
    let rows = steps.map { step -> [JSONValue?] in
      var row: [JSONValue?] = [
        .number(String(step.number)), .string(step.command.name),
        .string(date(step.time) + " " + clock(step.time)), .bool(step.number == history.current),
        .bool(step.number == history.savedState), .bool(ahead.contains(step.number)),
      ]
      if all { row.append(.number(String(step.parent))) }
      return row
    }
    return (columns, rows)
  }
}
