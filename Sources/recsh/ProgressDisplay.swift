import Glibc
import RecordShell

/// The one-line progress bar of a long open or save, on standard error:
///
///     Opening big.json  [##########          ]  51%  157.3 MB of 308.0 MB  88.0 MB/s  2 s left
///
/// It appears only once the work has taken half a second, is redrawn at most ten times a
/// second, fits the terminal's width, and is erased when the work ends, so a quick open
/// shows nothing and a finished one leaves the screen as it was. The shell makes one only
/// at the prompt, with standard error a terminal and without `--quiet`.
///
/// A class: the session's progress closure and the shell share it.
final class ProgressDisplay {
  static let delay = 0.5
  static let interval = 0.1

  private var operation = ProgressEvent.Operation.opening
  private var path = ""
  private var total = 0
  private var started = 0.0
  private var lastDrawn = 0.0
  private var shown = false

  func handle(_ event: ProgressEvent) {
    switch event {
    case .began(let operation, let path, let totalBytes):
      self.operation = operation
      self.path = path
      total = totalBytes
      started = Self.now()
      shown = false
    case .advanced(let bytes):
      let now = Self.now()
      guard now - started >= Self.delay, !shown || now - lastDrawn >= Self.interval else { return }
      lastDrawn = now
      shown = true
      draw(
        Self.line(
          operation, path: path, done: bytes, total: total, seconds: now - started, width: Self.width()))
    case .ended:
      if shown { StandardStreams.writeAll(2, Array("\r\u{1B}[K".utf8)) }
      shown = false
    }
  }

  private func draw(_ line: String) {
    StandardStreams.writeAll(2, Array(("\r" + line + "\u{1B}[K").utf8))
  }

  /// The bar's text for `done` of `total` bytes after `seconds`, at most `width - 1`
  /// columns (the last column is left free so the terminal never wraps). It never says
  /// 100 %: a total below what is done (a save's estimate) stands at 99 % until the end.
  static func line(
    _ operation: ProgressEvent.Operation, path: String, done: Int, total: Int, seconds: Double, width: Int
  ) -> String {
    let total = max(total, done, 1)
    let fraction = Double(done) / Double(total)
    // The bar is erased when the work ends, so while it shows, the work is not done.
    let percent = min(99, Int(fraction * 100))
    let rate = seconds > 0 ? Double(done) / seconds : 0
    let left = rate > 0 ? Double(total - done) / rate : 0
    let verb = operation == .opening ? "Opening" : "Saving"
    let name = TextCell.terminalSafe(path)
    let figures =
      "\(percent < 10 ? " " : "")\(percent)%  \(size(done)) of \(size(total))  \(size(Int(rate)))/s  "
      + "\(Int(left.rounded(.up))) s left"
    // The bar's width is set by the room the longest figures need, not the current
    // ones, so that it does not jump about as the figures change length.
    let fixed = verb.count + 1 + name.count + 4 + 2 + Self.longestFigures
    let barWidth = min(30, width - 1 - fixed)
    guard barWidth >= 5 else {
      // A narrow terminal: the figures alone, cut to fit.
      return String("\(verb) \(figures)".prefix(max(0, width - 1)))
    }
    let filled = Int(Double(barWidth) * min(1, fraction))
    let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: barWidth - filled)
    return "\(verb) \(name)  [\(bar)]  \(figures)"
  }

  /// The longest the figures get: `100%  999.9 MB of 999.9 MB  999.9 MB/s  9999 s left`.
  static let longestFigures = 50

  /// Bytes as `812 KB`, `157.3 MB`, `1.2 GB` (powers of 1000, as `ls -h --si` shows them).
  static func size(_ bytes: Int) -> String {
    let value = Double(bytes)
    switch value {
    case ..<1_000: return "\(bytes) B"
    case ..<1_000_000: return "\(Int(value / 1_000)) KB"
    case ..<1_000_000_000: return format(value / 1_000_000) + " MB"
    default: return format(value / 1_000_000_000) + " GB"
    }
  }

  private static func format(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The terminal's width in columns (80 when it cannot be told).
  static func width() -> Int {
    var size = winsize()
    guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }
}
