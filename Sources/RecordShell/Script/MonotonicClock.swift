#if canImport(Glibc)
  import Glibc
#endif

/// Seconds on the monotonic clock (`CLOCK_MONOTONIC`), which no change of the wall
/// clock moves: what `timing on` measures a command with.
enum MonotonicClock {
  static func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}
