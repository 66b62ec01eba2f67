/// What the runner hands the executable to print, in order.
public enum ScriptEvent: Equatable, Sendable {
  /// Text for standard output (a newline is added).
  case output(String)
  /// The same, already UTF-8 (a newline is added).
  case outputBytes([UInt8])
  /// A confirmation, shown only at the prompt.
  case info(String)
  /// An error or warning for standard error.
  case diagnostic(Diagnostic)
  /// Everything so far must reach its reader: the runner is about to wait for input.
  case flush
  /// `timing on`: the wall seconds the command just run took, for standard error
  /// (`time: 0.123 s`).
  case timing(Double)
}

extension ScriptEvent {
  /// The line `timing on` prints after a command that took `seconds`: three decimals.
  public static func timingLine(_ seconds: Double) -> String {
    let thousandths = Int((max(0, seconds) * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "time: \(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
  }
}

/// An error or warning with where it happened: `FILE:LINE: error: message`,
/// then one note per `source` that led there.
public struct Diagnostic: Equatable, Sendable {
  public enum Severity: String, Sendable {
    case error, warning
  }

  var location: String?
  var severity: Severity
  var message: String
  /// The `source` lines that led to `location`, innermost first.
  var chain: [String]

  public init(_ severity: Severity, _ message: String, at location: String?, chain: [String] = []) {
    self.severity = severity
    self.message = message
    self.location = location
    self.chain = chain
  }

  /// The text for standard error; at the prompt the location is left out (the
  /// line was just typed) unless it is in a sourced file.
  public func formatted(showingLocation: Bool = true) -> String {
    var text = "\(severity.rawValue): \(message)"
    if let location, showingLocation || !chain.isEmpty { text = "\(location): " + text }
    for outer in chain {
      text += "\n\(outer): note: in a file sourced from here"
    }
    return text
  }
}
