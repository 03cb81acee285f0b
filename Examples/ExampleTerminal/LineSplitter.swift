/// Cuts a stream of bytes into lines, whatever the sizes of the chunks it
/// arrives in (a character's UTF-8 bytes may be split across two reads).
///
/// A line ends at `\n`; a `\r` before it is dropped, so input typed on a
/// terminal that sends `\r\n` reads the same.
package struct LineSplitter {
  private var pending: [UInt8] = []

  /// Creates a splitter with nothing pending.
  package init() {}

  /// Takes the next chunk of bytes.
  ///
  /// - Parameter bytes: The bytes just read.
  /// - Returns: The lines this chunk completed, oldest first, without their
  ///   line ends.
  package mutating func append(_ bytes: some Collection<UInt8>) -> [String] {
    var lines: [String] = []
    for byte in bytes {
      if byte == UInt8(ascii: "\n") {
        lines.append(Self.text(pending))
        pending.removeAll(keepingCapacity: true)
      } else {
        pending.append(byte)
      }
    }
    return lines
  }

  /// Ends the input.
  ///
  /// - Returns: The last line when the input did not end with a line end,
  ///   otherwise `nil`.
  package mutating func finish() -> String? {
    guard !pending.isEmpty else { return nil }
    defer { pending = [] }
    return Self.text(pending)
  }

  private static func text(_ bytes: [UInt8]) -> String {
    let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...]
    return String(decoding: line, as: UTF8.self)
  }
}
