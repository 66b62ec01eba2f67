import Glibc

@testable import RecordShell

/// Runs `body` again while it fails only because the journal is locked.
///
/// Other tests in this process start child processes; between their `fork` and
/// `exec` a child briefly holds copies of every descriptor of the test process,
/// and with them the journal's open-file-description lock. recsh itself runs no
/// threads, so this window only exists in tests.
func retryingLock<T>(_ body: () throws -> T) throws -> T {
  for _ in 0..<200 {
    do {
      return try body()
    } catch SessionError.locked {
      usleep(5000)
    }
  }
  return try body()
}
