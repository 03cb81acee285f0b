import Foundation

/// The file a trace is written to, kept under its size cap.
///
/// Lines are appended whole. When appending would pass the cap, the file
/// is rewritten — into a temporary file renamed over it, so a reader sees
/// the old file or the new one, never a mix — with its header, a `dropped`
/// record counting the events removed, and the newest lines that fit in
/// half the cap. A crash can leave at most an unfinished last line, which
/// readers skip.
final class TraceFile {
  let url: URL
  private let header: Data
  private let maximumSize: Int
  private var handle: FileHandle?
  private var size: Int
  private var failure: TraceError?

  /// Creates (or empties) the file at `url` and writes `header` to it.
  init(url: URL, header: Data, maximumSize: Int) throws(TraceError) {
    self.url = url
    self.header = header
    self.maximumSize = maximumSize
    guard FileManager.default.createFile(atPath: url.path, contents: header) else {
      throw .file(path: url.path, reason: "cannot be created (does its directory exist?)")
    }
    do {
      let handle = try FileHandle(forWritingTo: url)
      try handle.seekToEnd()
      self.handle = handle
    } catch {
      throw .file(path: url.path, reason: "\(error)")
    }
    size = header.count
  }

  /// Appends whole lines, keeping the file under its cap.
  func append(_ lines: [Data]) {
    guard failure == nil, let handle, !lines.isEmpty else { return }
    let added = lines.reduce(0) { $0 + $1.count }
    do {
      if size + added > maximumSize {
        try rewrite(adding: lines)
      } else {
        var data = Data(capacity: added)
        for line in lines { data.append(line) }
        try handle.write(contentsOf: data)
        size += added
      }
    } catch {
      failure = .file(path: url.path, reason: "\(error)")
    }
  }

  /// Closes the file; returns the first error it gave.
  func close() -> TraceError? {
    try? handle?.close()
    handle = nil
    return failure
  }

  /// Rewrites the file with the newest lines that fit in half the cap.
  private func rewrite(adding newLines: [Data]) throws {
    try handle?.close()
    handle = nil
    let existing = try Data(contentsOf: url)
    var lines = existing.split(separator: 0x0A, omittingEmptySubsequences: true).dropFirst().map { Data($0) + [0x0A] }
    lines += newLines
    let marker = 160  // room for the `dropped` record
    var budget = maximumSize / 2 - header.count - marker
    var keepFrom = lines.count
    while keepFrom > 0, lines[keepFrom - 1].count <= budget {
      budget -= lines[keepFrom - 1].count
      keepFrom -= 1
    }
    // Removed `dropped` records carry earlier removals: their counts add up.
    var removed = 0
    var lastTime: Int64?
    for line in lines[..<keepFrom] {
      let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
      if object?["kind"] as? String == "dropped" {
        removed += (object?["count"] as? Int) ?? 0
      } else if object?["kind"] as? String != "end" {
        removed += 1
      }
      if let t = object?["t"] as? Int { lastTime = Int64(t) }
    }
    var data = header
    let record = "{\"kind\":\"dropped\",\"count\":\(removed),\"reason\":\"file size\"\(lastTime.map { ",\"t\":\($0)" } ?? "")}\n"
    data.append(Data(record.utf8))
    for line in lines[keepFrom...] { data.append(line) }
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
    try data.write(to: temporary)
    guard rename(temporary.path, url.path) == 0 else {
      try? FileManager.default.removeItem(at: temporary)
      throw TraceError.file(path: url.path, reason: "cannot replace it (errno \(errno))")
    }
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    self.handle = handle
    size = data.count
  }
}
