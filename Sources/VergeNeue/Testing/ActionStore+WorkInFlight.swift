extension ActionStore {
  /// The actions sent and not yet reduced plus the effects running: zero
  /// exactly when `waitUntilIdle()` would return. An action an effect sent
  /// while another thread held the store counts until it is reduced, even
  /// once that effect has ended (`effectsInFlight` no longer counts it).
  package var workInFlight: Int { engine.inFlight.count }
}
