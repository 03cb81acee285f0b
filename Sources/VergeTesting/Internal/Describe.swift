/// Texts shared by the failure messages.
enum Describe {
  /// `.increment`, `.add(4)`: an action as failure messages show it.
  static func action(_ action: Any) -> String {
    ValueRenderer.render(action)
  }

  /// `File.swift:12` from a `#filePath`.
  static func location(_ file: StaticString, _ line: UInt) -> String {
    let path = "\(file)"
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return "\(name):\(line)"
  }

  /// `1 s`, `250 ms`.
  static func duration(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
    return "\(milliseconds) ms"
  }
}
