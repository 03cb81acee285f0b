import CCallgrind

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the dumps that callgrind writes at each `callgrind_end(_:)`.
///
/// Run with `--callgrind-out-file=FILE`, callgrind writes the n-th dump
/// requested by the program to `FILE.n`; its `totals:` line holds the
/// instructions (`Ir`) collected since the counters were last zeroed.
final class CallgrindDumps {
  /// The dumps of this process; the harness is single-threaded.
  nonisolated(unsafe) static let shared = CallgrindDumps()

  private var dumps = 0

  /// The instruction total of the dump just written, or `nil` when the
  /// process does not run under valgrind or the dump cannot be read.
  func nextTotal(output: String) -> Int? {
    guard callgrind_is_running() != 0 else { return nil }
    dumps += 1
    guard let text = readFile("\(output).\(dumps)") else { return nil }
    return Self.total(in: text)
  }

  /// The number on the `totals:` line of a callgrind dump.
  static func total(in dump: String) -> Int? {
    for line in dump.split(separator: "\n") where line.hasPrefix("totals:") {
      let fields = line.dropFirst("totals:".count).split(separator: " ")
      return fields.first.flatMap { Int($0) }
    }
    return nil
  }

  private func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let read = fread(&buffer, 1, buffer.count, file)
      if read <= 0 { break }
      bytes.append(contentsOf: buffer[0..<read])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
