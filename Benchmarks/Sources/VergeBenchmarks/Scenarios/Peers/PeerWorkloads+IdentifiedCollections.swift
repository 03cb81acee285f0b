import IdentifiedCollections

/// Scenario 14's baseline: swift-identified-collections' `IdentifiedArrayOf`
/// (an `OrderedDictionary` of ids to elements), the collection The Composable
/// Architecture keeps rows in. The same code as `VergePeer`'s.
enum IdentifiedCollectionsPeer {
  static func workload(_ operation: PeerOperation, size: Int) -> Workload {
    let next = scatteredIDs(size)
    switch operation {
    case .uniqueWrite:
      let box = Box(IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size)))
      return Workload(keepAlive: [box]) { iterations in
        for _ in 0..<iterations { box.value[id: next()]?.value &+= 1 }
      }
    case .heldWrite:
      let box = Box(IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size)))
      let held = Box(box.value)
      return Workload(keepAlive: [box, held]) { iterations in
        for _ in 0..<iterations {
          held.value = box.value
          box.value[id: next()]?.value &+= 1
        }
      }
    case .read:
      let rows = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size))
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows[id: next()]) }
      }
    case .iterate:
      let rows = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size))
      return Workload { iterations in
        for _ in 0..<iterations {
          var sum = 0
          for row in rows { sum &+= row.value }
          blackHole(sum)
        }
      }
    case .forEach:
      let rows = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size))
      return Workload { iterations in
        for _ in 0..<iterations {
          var sum = 0
          rows.forEach { sum &+= $0.value }
          blackHole(sum)
        }
      }
    case .map:
      let rows = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size))
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows.map { $0.value }) }
      }
    case .filter:
      let rows = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size))
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows.filter { $0.id & 1 == 0 }) }
      }
    case .contains:
      let rows = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size))
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows.contains { $0.id < 0 }) }
      }
    case .countWhere:
      let rows = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size))
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(rows.count { $0.id & 1 == 0 }) }
      }
    case .equality:
      let first = IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size))
      var second = first
      second[id: size / 2]?.value = 1
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(first == second) }
      }
    case .removeAndReinsert:
      let box = Box(IdentifiedArrayOf<PeerRow>(uniqueElements: peerRows(size)))
      return Workload(keepAlive: [box]) { iterations in
        for _ in 0..<iterations {
          let id = next()
          guard let index = box.value.index(id: id), let row = box.value.remove(id: id) else { continue }
          blackHole(box.value.insert(row, at: index))
        }
      }
    case .build:
      let rows = peerRows(size)
      return Workload { iterations in
        for _ in 0..<iterations { blackHole(IdentifiedArrayOf<PeerRow>(uniqueElements: rows)) }
      }
    }
  }
}
