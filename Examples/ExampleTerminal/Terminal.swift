import Foundation

/// Reading and writing for the examples' interactive sessions.
///
/// Both go straight to the file descriptors, never through stdio's `FILE`
/// streams. A thread blocked in `readLine()` holds the lock of `stdin`, and
/// `fflush(nil)` waits for every stream's lock, stdin's included: a session
/// that read that way and flushed that way stopped showing its output until
/// the next line was typed, and did not quit until end of input.
package enum Terminal {
  /// Whether standard output is a terminal (so a screen may be cleared).
  package static var isInteractive: Bool { isatty(STDOUT_FILENO) != 0 }

  /// Writes text to a file descriptor at once, unbuffered.
  ///
  /// - Parameters:
  ///   - text: The text to write.
  ///   - descriptor: Where to write it; standard output by default.
  package static func write(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer in
        Foundation.write(descriptor, buffer.baseAddress, buffer.count)
      }
      if written > 0 {
        bytes = bytes.dropFirst(written)
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return  // the reader went away; nothing more can be shown
      }
    }
  }

  /// Lines read from a file descriptor on a thread of their own, so the
  /// session can redraw while waiting for the next line; the sequence ends
  /// at end of input or on a read error.
  ///
  /// - Parameter descriptor: Where to read; standard input by default.
  /// - Returns: The lines, without their line ends.
  package static func lines(from descriptor: Int32 = STDIN_FILENO) -> AsyncStream<String> {
    AsyncStream { continuation in
      let thread = Thread {
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          let count = buffer.withUnsafeMutableBytes { raw in
            Foundation.read(descriptor, raw.baseAddress, raw.count)
          }
          if count > 0 {
            for line in splitter.append(buffer[..<count]) { continuation.yield(line) }
          } else if count < 0 && errno == EINTR {
            continue
          } else {
            break
          }
        }
        if let last = splitter.finish() { continuation.yield(last) }
        continuation.finish()
      }
      thread.start()
    }
  }
}
