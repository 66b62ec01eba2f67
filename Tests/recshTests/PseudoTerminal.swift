import Foundation
import Glibc

/// The real `recsh` on a pseudo-terminal made with `forkpty()`, driven by
/// keystrokes like a person at a terminal (CI has none: its stdin is /dev/null).
///
/// Two races make naive terminal tests flaky, and every step here avoids them:
/// - libedit prints the prompt *before* it switches the terminal to raw mode,
///   so keys sent right after the prompt could be handled by the kernel (a ^D
///   swallowed as end-of-file). `waitForPrompt` waits for the prompt AND for
///   the terminal's ICANON and ECHO to be off.
/// - A Ctrl-C that overtakes the keys typed before it cancels nothing: wait for
///   their echo first (`expect`).
///
/// Every wait has a deadline and throws with everything received, so a broken
/// shell fails a test instead of hanging it.
final class PseudoTerminal {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let pid: pid_t
  private let master: Int32
  private var received: [UInt8] = []
  /// Where the next `expect` starts looking: everything before was matched.
  private var position = 0
  private var exitStatus: Int32?
  /// Whether recsh closed the terminal (it ended).
  private var closed = false
  static let timeout: Double = 20

  /// Starts recsh with `arguments` in `directory`, with exactly `environment`.
  init(_ arguments: [String], directory: URL, environment: [String: String]) throws {
    let path = RecshBinary.url.path
    let argv = CStringArray([path] + arguments)
    var environment = environment
    if environment["RECSH_STATE_DIR"] == nil { environment["RECSH_STATE_DIR"] = stateFolder(for: directory) }
    let envp = CStringArray(environment.map { "\($0.key)=\($0.value)" })
    let folder = CStringArray([directory.path])
    let lastDescriptor = Int32(min(sysconf(Int32(_SC_OPEN_MAX)), 4096))
    var size = winsize(ws_row: 40, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
    var master: Int32 = -1
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    let pid = forkpty(&master, nil, nil, &size)
    if pid == 0 {
      // The child: only async-signal-safe calls until exec. It starts as a
      // shell would start it: no blocked signals, and no descriptors of other
      // tests' pipes living on in recsh.
      sigprocmask(SIG_SETMASK, &noSignals, nil)
      Glibc.signal(SIGINT, SIG_DFL)
      Glibc.signal(SIGQUIT, SIG_DFL)
      Glibc.signal(SIGTSTP, SIG_DFL)
      Glibc.signal(SIGPIPE, SIG_DFL)
      Glibc.signal(SIGCHLD, SIG_DFL)
      var descriptor: Int32 = 3
      while descriptor < lastDescriptor {
        close(descriptor)
        descriptor += 1
      }
      if let folder = folder.pointers[0] { _ = chdir(folder) }
      if let program = argv.pointers[0] { execve(program, argv.pointers, envp.pointers) }
      _exit(127)
    }
    guard pid > 0 else { throw Failure(description: "forkpty failed: errno \(errno)") }
    self.pid = pid
    self.master = master
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    if exitStatus == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    close(master)
  }

  /// Everything the terminal showed so far.
  var output: String { String(decoding: received, as: UTF8.self) }

  /// What arrived since the last matched text.
  var unmatched: String { String(decoding: received[position...], as: UTF8.self) }

  func send(_ text: String) {
    send(bytes: Array(text.utf8))
  }

  /// Types raw bytes, which need not be UTF-8.
  func send(bytes: [UInt8]) {
    var bytes = bytes
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        write(master, $0.baseAddress.map { $0 + offset }, $0.count - offset)
      }
      if written > 0 {
        offset += written
      } else if errno != EAGAIN && errno != EINTR {
        return
      }
    }
  }

  /// Waits until `marker` arrives after the last match; returns the text from
  /// there to the end of the marker, and moves past it.
  @discardableResult
  func expect(_ marker: String, timeout: Double = PseudoTerminal.timeout) throws -> String {
    let wanted = Array(marker.utf8)
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let range = find(wanted) {
        let text = String(decoding: received[position..<range.upperBound], as: UTF8.self)
        position = range.upperBound
        return text
      }
      guard Date() < deadline, !closed else {
        throw Failure(
          description: "no \(marker.debugDescription) within \(timeout) s; since the last match: "
            + unmatched.debugDescription)
      }
      readMore(until: deadline)
    }
  }

  /// Waits for `prompt`, then for libedit to have put the terminal in raw
  /// mode, so that the next keys reach libedit and not the kernel's line editing.
  func waitForPrompt(_ prompt: String) throws {
    try expect(prompt)
    try waitForRawMode(after: prompt)
  }

  /// Waits for libedit to have put the terminal in raw mode (after a prompt matched).
  func waitForRawMode(after prompt: String) throws {
    let deadline = Date().addingTimeInterval(Self.timeout)
    while true {
      var settings = termios()
      // On Linux the master reports the slave's settings.
      if tcgetattr(master, &settings) == 0, settings.c_lflag & tcflag_t(ICANON | ECHO) == 0 { return }
      guard Date() < deadline else {
        throw Failure(description: "the terminal never left canonical mode after \(prompt.debugDescription)")
      }
      readMore(until: Date().addingTimeInterval(0.005))
    }
  }

  /// Whether the terminal is in its own (cooked) mode: canonical input and echo on, as
  /// a shell expects it back. Readable after recsh ended too (the master stays open).
  var isCooked: Bool {
    var settings = termios()
    guard tcgetattr(master, &settings) == 0 else { return false }
    return settings.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO)
  }

  /// Sends `signal` to recsh.
  func signal(_ signal: Int32) {
    kill(pid, signal)
  }

  /// Changes the window size, which sends SIGWINCH to recsh.
  func resize(rows: UInt16, columns: UInt16) {
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  /// Waits for recsh to end, reading what it prints meanwhile; its exit status.
  func waitForExit(timeout: Double = PseudoTerminal.timeout) throws -> Int32 {
    if let exitStatus { return exitStatus }
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        while readMore(until: Date()) {}
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        return code
      }
      readMore(until: Date().addingTimeInterval(0.02))
    }
    throw Failure(
      description: "recsh did not exit within \(timeout) s; it showed: " + unmatched.debugDescription)
  }

  private func find(_ wanted: [UInt8]) -> Range<Int>? {
    guard !wanted.isEmpty, received.count - position >= wanted.count else { return nil }
    var start = position
    while start + wanted.count <= received.count {
      if received[start..<start + wanted.count].elementsEqual(wanted) { return start..<start + wanted.count }
      start += 1
    }
    return nil
  }

  /// Reads what is there, waiting up to 100 ms (and not past `deadline`) for
  /// something; whether anything came. Notes when recsh closed the terminal.
  @discardableResult
  private func readMore(until deadline: Date) -> Bool {
    let milliseconds = Int32(max(0, min(100, deadline.timeIntervalSinceNow * 1000)))
    var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&ready, 1, milliseconds) > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(master, &buffer, buffer.count)
    guard count > 0 else {
      if count == 0 || (errno != EAGAIN && errno != EINTR) { closed = true }
      return false
    }
    received += buffer[..<count]
    return true
  }
}

/// C strings for `execve`, made before `fork`: the child must not allocate.
private final class CStringArray {
  let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
  private let count: Int

  init(_ strings: [String]) {
    count = strings.count
    pointers = .allocate(capacity: strings.count + 1)
    for (index, string) in strings.enumerated() {
      pointers[index] = strdup(string)
    }
    pointers[strings.count] = nil
  }

  deinit {
    for index in 0..<count {
      free(pointers[index])
    }
    pointers.deallocate()
  }
}
