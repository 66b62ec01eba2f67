import Glibc

/// Keeps a mapped file that another program truncates from crashing recsh.
///
/// Touching a page of a mapping past the end of its (now shorter) file raises `SIGBUS`,
/// which by default ends the process. While `run` goes, a `SIGBUS` handler maps a page of
/// zeros over the faulting page of the guarded mapping and notes the fault; the read goes
/// on with zeros, and the caller, told that a fault happened, throws the whole result
/// away ("changed while being read"). A fault anywhere else is not ours: the handler puts
/// the default action back and returns, so the fault repeats and ends the process as it
/// would have without the guard.
///
/// Foundation offers no way to survive the fault, and reading through `read(2)` into
/// owned memory would hold the whole file beside the records made from it (a third more
/// memory at the peak of a load), so the few lines here do it.
///
/// One guard at a time in the process: a `run` on another thread (a test's, say) waits for
/// the one going on to end, since the handler knows one range; the state the handler
/// reads is set before the handler is installed. A `run` must not start another inside
/// its body. Threads its body starts and waits for (a save's patches made on two cores,
/// `DataFile.sideBySide`) read under it too: the handler serves whichever thread faults.
enum MappingFaultGuard {
  /// Runs `body` with faults on `mapping` turned into pages of zeros; returns what `body`
  /// returned and whether any fault happened (then the bytes it saw are not the file's).
  static func run<Result>(over mapping: UnsafeRawBufferPointer, _ body: () -> Result) -> (
    result: Result, faulted: Bool
  ) {
    guard let base = mapping.baseAddress, !mapping.isEmpty else { return (body(), false) }
    pthread_mutex_lock(oneAtATime)
    defer { pthread_mutex_unlock(oneAtATime) }
    guardedStart = UInt(bitPattern: base)
    guardedEnd = guardedStart + UInt(mapping.count)
    faulted = false
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = handleFault
    action.sa_flags = SA_SIGINFO
    sigemptyset(&action.sa_mask)
    var previous = sigaction()
    sigaction(SIGBUS, &action, &previous)
    let result = body()
    sigaction(SIGBUS, &previous, nil)
    guardedStart = 0
    guardedEnd = 0
    return (result, faulted)
  }

  /// Whether a fault has hit the mapping of the `run` going on so far (what its body asks
  /// before it commits to what it made of the bytes).
  static var hasFaulted: Bool { faulted }
}

/// The guarded range and whether a fault hit it: plain globals, because a signal handler
/// can reach nothing else. Written only outside the handler's lifetime, except `faulted`.
nonisolated(unsafe) private var guardedStart: UInt = 0
nonisolated(unsafe) private var guardedEnd: UInt = 0
nonisolated(unsafe) private var faulted = false
/// Held by the `run` going on.
nonisolated(unsafe) private let oneAtATime: UnsafeMutablePointer<pthread_mutex_t> = {
  let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  pthread_mutex_init(lock, nil)
  return lock
}()
private let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))

/// The `SIGBUS` handler: only async-signal-safe calls (`mmap`, `signal` are system calls).
private func handleFault(
  _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
  let address = info.map { UInt(bitPattern: $0.pointee._sifields._sigfault.si_addr) } ?? 0
  guard address >= guardedStart, address < guardedEnd else {
    Glibc.signal(SIGBUS, SIG_DFL)
    return
  }
  let page = address & ~(pageSize - 1)
  let mapped = mmap(
    UnsafeMutableRawPointer(bitPattern: page), Int(pageSize), PROT_READ,
    MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS,
    -1, 0)
  if mapped == MAP_FAILED {
    Glibc.signal(SIGBUS, SIG_DFL)
    return
  }
  faulted = true
}
