import HashTreeCollections

/// Scenario 14's third side: swift-collections' `TreeDictionary` (a CHAMP
/// hash trie, structurally shared) of ids to elements. It keeps no order,
/// so it has no "re-insert at its place".
enum TreeDictionaryPeer {
  static func workload(_ operation: PeerOperation, size: Int) -> Workload? {
    let next = scatteredIDs(size)
    switch operation {
    case .uniqueWrite:
      let box = Box(dictionary(size))
      return Workload(keepAlive: [box]) { iterations in
        for _ in 0..<iterations { box.value[next()]?.value &+= 1 }
      }
    case .heldWrite:
      let box = Box(dictionary(size))
      let held = Box(box.value)
      return Workload(keepAlive: [box, held]) { iterations in
        for _ in 0..<iterations {
          held.value = box.value
          box.value[next()]?.value &+= 1
        }
      }
    case .read:
      let rows = dictionary(size)
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows[next()]) }
      }
    case .iterate:
      let rows = dictionary(size)
      return Workload { iterations in
        for _ in 0..<iterations {
          var sum = 0
          for (_, row) in rows { sum &+= row.value }
          blackHole(sum)
        }
      }
    case .forEach:
      let rows = dictionary(size)
      return Workload { iterations in
        for _ in 0..<iterations {
          var sum = 0
          rows.forEach { sum &+= $0.value.value }
          blackHole(sum)
        }
      }
    case .map:
      let rows = dictionary(size)
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows.map { $0.value.value }) }
      }
    case .filter:
      let rows = dictionary(size)
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows.filter { $0.value.id & 1 == 0 }) }
      }
    case .contains:
      let rows = dictionary(size)
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows.contains { $0.value.id < 0 }) }
      }
    case .countWhere:
      let rows = dictionary(size)
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows.count { $0.value.id & 1 == 0 }) }
      }
    case .equality:
      let first = dictionary(size)
      var second = first
      second[size / 2]?.value = 1
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(first == second) }
      }
    case .removeAndReinsert:
      return nil
    case .build:
      let pairs = peerRows(size).map { ($0.id, $0) }
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(TreeDictionary(uniqueKeysWithValues: pairs)) }
      }
    }
  }

  private static func dictionary(_ size: Int) -> TreeDictionary<Int, PeerRow> {
    TreeDictionary(uniqueKeysWithValues: peerRows(size).map { ($0.id, $0) })
  }
}
