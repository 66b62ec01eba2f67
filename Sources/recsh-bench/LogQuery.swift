import RecordKit
import RecordShell

/// Times `log REF` and `blame REF` after a script of edits, in one process: the bench's
/// measure of how their cost grows with the history (`scripts/bench` runs it after a
/// thousand steps and after a million, on one record). The file is opened as tasks with
/// no undo limit and no log beside it; the script's lines run as a piped script's would,
/// untimed; then each command runs `count` times in each of five rounds, timed, and the
/// fastest round gives the time of one call.
enum LogQuery {
  static func run(input: String, script: String, ref: String, count: Int) throws(BenchError) -> String {
    var session: Session<TaskRecord>
    do {
      session = try Session<TaskRecord>.open(
        path: input, undoLimit: 0, keepsHistory: false, stateFolder: StateFolder.forProcess(explicit: nil)
      ).session
    } catch {
      throw .session(error.description)
    }
    session.close()
    let text: [UInt8]
    do {
      text = try FileReader.readFile(script, using: PosixFileSystem()).bytes
    } catch {
      throw .storage(error)
    }
    for line in text.split(separator: UInt8(ascii: "\n")) {
      do {
        _ = try session.run(line: String(decoding: line, as: UTF8.self))
      } catch {
        throw .session("\(script): \(error.description)")
      }
    }
    let clock = ContinuousClock()
    var seconds: [Double] = []
    var printed = 0
    for command in ["log \(ref)", "blame \(ref)"] {
      // The fastest of five rounds: a call takes microseconds, and a slow moment of this
      // shared machine would otherwise be most of a round.
      var fastest = Double.infinity
      for _ in 0..<5 {
        let start = clock.now
        for _ in 0..<count {
          do {
            for case .output(let output) in try session.run(line: command) { printed += output.utf8.count }
          } catch {
            throw .session("\(command): \(error.description)")
          }
        }
        let elapsed = clock.now - start
        fastest = min(
          fastest, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
      }
      seconds.append(fastest)
    }
    let steps = session.editor.history.nextNumber - 1
    return
      "log \(seconds[0] / Double(count)) blame \(seconds[1] / Double(count)) steps \(steps) bytes \(printed)"
  }
}
