import Foundation

/// Reading the state file when persistence is attached.
struct PersistenceRestore<Part: Decodable> {
  /// What happened.
  var outcome: RestoreOutcome
  /// The value to put into the state, if any.
  var value: Part?
  /// The file's bytes when it was restored as is.
  var file: Data?

  /// Reads, checks, decodes or migrates the file at `path`; moves a refused
  /// file aside.
  ///
  /// - Throws: `.io` when the file cannot be read or moved aside.
  static func read(
    _ path: String, version: Int, migrate: (@Sendable (PersistedPayload) throws -> Part)?
  ) throws(PersistenceError) -> PersistenceRestore {
    guard let file = try StateFile.contents(of: path) else {
      return PersistenceRestore(outcome: .nothingStored)
    }
    do throws(PersistenceError) {
      let (stored, payload) = try StateFile.unframe(file)
      if stored > version {
        throw .newerVersion(found: stored, supported: version)
      }
      if stored < version {
        guard let migrate else {
          throw .migrationFailed(from: stored, to: version, reason: "no migration was given")
        }
        do {
          let value = try migrate(PersistedPayload(version: stored, data: payload))
          return PersistenceRestore(outcome: .migrated(from: stored, to: version), value: value)
        } catch {
          throw .migrationFailed(from: stored, to: version, reason: "\(error)")
        }
      }
      do {
        let value = try JSONDecoder().decode(Part.self, from: payload)
        return PersistenceRestore(outcome: .restored(version: stored), value: value, file: file)
      } catch {
        throw .undecodable(reason: "\(error)")
      }
    } catch {
      let aside = try StateFile.moveAside(path)
      return PersistenceRestore(outcome: .refused(error, movedAsideTo: URL(fileURLWithPath: aside)))
    }
  }
}

extension RestoreOutcome {
  /// Whether the restored value must be written back (in the current version).
  var writesBack: Bool {
    if case .migrated = self { return true }
    return false
  }
}
