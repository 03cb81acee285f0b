import Verge
import Dispatch
import Foundation

/// Takes a trace's events on the threads that cause them and writes them
/// on a queue of its own.
///
/// A thread that causes an event only appends a closure to a bounded ring
/// under a lock (and schedules the writer when it was idle); describing
/// the event (diffs, renderings) and writing happen on the writer's queue.
/// A full ring drops its oldest event, and the next write starts with a
/// `dropped` record that counts them.
final class TraceWriter: Sendable {
  /// An event waiting to be written: its number, its time, and how to
  /// describe it.
  struct Pending: Sendable {
    let seq: Int
    let time: Int64
    let describe: @Sendable (inout TraceRecord) -> Void
  }

  private struct Buffer: Sendable {
    var ring: Ring<Pending>
    var nextSeq = 0
    var dropped = 0
    var scheduled = false
    var closed = false
  }

  private let buffer: SharedLock<Buffer>
  /// The writer's serial queue (internal for tests, which hold it busy).
  let queue = DispatchQueue(label: "Verge.Trace.writer")
  private let file: TraceFile
  private let rendering: TraceRendering
  private let start = ContinuousClock.now

  init(file: TraceFile, options: TraceOptions) {
    self.file = file
    rendering = TraceRendering(maximumValueLength: options.maximumValueLength)
    buffer = SharedLock(Buffer(ring: Ring(capacity: options.bufferCapacity)))
  }

  /// Microseconds since the trace started.
  func now() -> Int64 {
    let parts = start.duration(to: .now).components
    return parts.seconds * 1_000_000 + parts.attoseconds / 1_000_000_000_000
  }

  /// Queues an event; returns its sequence number, or `nil` once closed.
  @discardableResult
  func enqueue(_ describe: @escaping @Sendable (inout TraceRecord) -> Void) -> Int? {
    let time = now()
    let (seq, schedule) = buffer.withLock { buffer -> (Int?, Bool) in
      guard !buffer.closed else { return (nil, false) }
      buffer.nextSeq += 1
      if buffer.ring.append(Pending(seq: buffer.nextSeq, time: time, describe: describe)) { buffer.dropped += 1 }
      defer { buffer.scheduled = true }
      return (buffer.nextSeq, !buffer.scheduled)
    }
    if schedule { queue.async { [self] in drain() } }
    return seq
  }

  /// Stops taking events, writes what waits, and closes the file.
  ///
  /// - Returns: The first error the file gave, if any.
  func close() async -> TraceError? {
    await withCheckedContinuation { (continuation: CheckedContinuation<TraceError?, Never>) in
      closeSoon { continuation.resume(returning: $0) }
    }
  }

  /// `close()` without waiting; `done` runs on the writer's queue.
  func closeSoon(_ done: @escaping @Sendable (TraceError?) -> Void = { _ in }) {
    let last = now()
    let written = buffer.withLock { buffer -> Int? in
      guard !buffer.closed else { return nil }
      buffer.closed = true
      return buffer.nextSeq
    }
    queue.async { [self] in
      if let written {
        drain()
        var end = TraceRecord(kind: "end")
        end.t = last
        end.count = written
        file.append([Self.encode(end)])
      }
      done(file.close())
    }
  }

  /// Waits until everything queued so far is written.
  func flush() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.async { [self] in
        drain()
        continuation.resume()
      }
    }
  }

  /// Writes what waits; runs on the writer's queue.
  private func drain() {
    let (items, dropped) = buffer.withLock { buffer -> ([Pending], Int) in
      buffer.scheduled = false
      defer { buffer.dropped = 0 }
      return (buffer.ring.removeAll(), buffer.dropped)
    }
    guard !items.isEmpty || dropped > 0 else { return }
    var lines: [Data] = []
    lines.reserveCapacity(items.count + 1)
    if dropped > 0 {
      var record = TraceRecord(kind: "dropped")
      record.t = items.first?.time ?? now()
      record.count = dropped
      record.reason = "buffer"
      lines.append(Self.encode(record))
    }
    for item in items {
      var record = TraceRecord(kind: "")
      record.seq = item.seq
      record.t = item.time
      item.describe(&record)
      lines.append(Self.encode(record))
    }
    file.append(lines)
  }

  /// One line of JSON with its newline. An action that fails to encode is
  /// left out of its record.
  static func encode(_ record: TraceRecord) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    var line: Data
    do {
      line = try encoder.encode(record)
    } catch {
      var plain = record
      plain.action = nil
      plain.error = "the action could not be encoded: \(error)"
      line = (try? encoder.encode(plain)) ?? Data("{\"kind\":\"\(record.kind)\"}".utf8)
    }
    line.append(0x0A)
    return line
  }

  var renderer: TraceRendering { rendering }
}

/// A ring of at most `capacity` elements that drops its oldest when full.
struct Ring<Element: Sendable>: Sendable {
  private var storage: [Element?]
  private var head = 0
  private(set) var count = 0

  init(capacity: Int) {
    storage = Array(repeating: nil, count: capacity)
  }

  /// Appends `element`; returns whether the oldest was dropped for it.
  mutating func append(_ element: Element) -> Bool {
    let capacity = storage.count
    if count == capacity {
      storage[head] = element
      head = (head + 1) % capacity
      return true
    }
    storage[(head + count) % capacity] = element
    count += 1
    return false
  }

  /// Takes every element out, oldest first.
  mutating func removeAll() -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(count)
    for offset in 0..<count {
      let index = (head + offset) % storage.count
      result.append(storage[index].unsafelyUnwrapped)
      storage[index] = nil
    }
    head = 0
    count = 0
    return result
  }
}
