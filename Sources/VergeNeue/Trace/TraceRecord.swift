import Verge

/// One line of a trace file: the header, or one event. The fields a kind
/// does not use are left out of the line. The format is specified field
/// by field in the "Tracing a store" article.
struct TraceRecord: Encodable {
  /// Where an action came from.
  struct Cause: Encodable, Sendable {
    /// `send`, `effect` or `middleware`.
    var kind: String
    /// The effect task that sent it; absent for `Effect.send`.
    var effect: UInt64?
    /// The action whose effect sent it, rendered.
    var origin: String?
  }

  /// One differing path of the state.
  struct Change: Encodable, Sendable {
    var path: String
    var before: String
    var after: String
  }

  /// An `Encodable` action, encoded as its own JSON.
  struct Payload: Encodable {
    let value: any Encodable
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
  }

  var seq: Int?
  var t: Int64?
  var kind: String
  // Header
  var format: String?
  var version: Int?
  var started: String?
  var store: String?
  var stateType: String?
  var actionType: String?
  // Events
  var name: String?
  var payload: String?
  var action: Payload?
  var cause: Cause?
  var duration: Int64?
  var diff: [Change]?
  var state: [String]?
  var location: String?
  var effect: UInt64?
  var origin: String?
  var originSeq: Int?
  var outcome: String?
  var error: String?
  var count: Int?
  var reason: String?

  init(kind: String) {
    self.kind = kind
  }

  private enum CodingKeys: String, CodingKey {
    case seq, t, kind, format, version, started, store, stateType, actionType, name, payload, action, cause,
      duration, diff, state, location, effect, origin, originSeq, outcome, error, count, reason
  }
}

/// How a trace describes values: one-line renderings, cut to a length.
struct TraceRendering: Sendable {
  let maximumValueLength: Int

  func clip(_ text: String) -> String {
    text.count <= maximumValueLength ? text : String(text.prefix(max(maximumValueLength - 1, 0))) + "…"
  }

  /// `photo.post` for `.photo(id: …, action: .post("Nice"))`: the case
  /// names of the value and of the enum values nested in its payload.
  func name(of value: Any) -> String {
    var parts: [String] = []
    var current: Any = value
    for _ in 0..<8 {
      let mirror = Mirror(reflecting: current)
      guard mirror.displayStyle == .enum else { break }
      guard let payload = mirror.children.first, let label = payload.label else {
        parts.append("\(current)")
        break
      }
      parts.append(label)
      let inner = Mirror(reflecting: payload.value)
      if inner.displayStyle == .enum {
        current = payload.value
      } else if inner.displayStyle == .tuple,
        let nested = inner.children.reversed().first(where: { Mirror(reflecting: $0.value).displayStyle == .enum })
      {
        current = nested.value
      } else {
        break
      }
    }
    return parts.isEmpty ? String(describing: type(of: value)) : parts.joined(separator: ".")
  }

  func render(_ value: Any) -> String {
    clip(ValueRenderer.render(value))
  }

  func diff<State>(_ before: State, _ after: State) -> [TraceRecord.Change] {
    ValueDiff.differences(before, after).map {
      TraceRecord.Change(path: $0.path, before: clip($0.old), after: clip($0.new))
    }
  }

  /// `label: value` for each top-level property of `state` (the whole
  /// value when it has none).
  func fields<State>(of state: State) -> [String] {
    let mirror = Mirror(reflecting: state)
    guard mirror.displayStyle == .struct || mirror.displayStyle == .class, !mirror.children.isEmpty else {
      return [render(state)]
    }
    return mirror.children.enumerated().map { index, child in
      "\(child.label ?? "#\(index)"): \(render(child.value))"
    }
  }
}
