import Foundation
import PrinterKit

/// A keyring in memory, to check what `ConfigStore` asks of one; it can be told to refuse.
final class MemorySecretStore: SecretStore, @unchecked Sendable {
    struct Refused: Error {}

    private let lock = NSLock()
    private var codes: [UUID: String] = [:]
    private var refusing = false
    private var stores = 0

    var storeCount: Int { lock.withLock { stores } }

    func code(_ id: UUID) -> String? { lock.withLock { codes[id] } }

    func refuse() { lock.withLock { refusing = true } }

    func accept() { lock.withLock { refusing = false } }

    func store(accessCode: String, for printerID: UUID, label: String) throws {
        try lock.withLock {
            if refusing { throw Refused() }
            stores += 1
            codes[printerID] = accessCode
        }
    }

    func accessCode(for printerID: UUID) throws -> String? {
        try lock.withLock {
            if refusing { throw Refused() }
            return codes[printerID]
        }
    }

    func removeAccessCode(for printerID: UUID) throws {
        lock.withLock { codes[printerID] = nil }
    }
}
