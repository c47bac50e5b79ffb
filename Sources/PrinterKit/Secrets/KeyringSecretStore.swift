import CSecret
import Dispatch
import Foundation
import StreamKit

/// Access codes in the desktop's Secret Service (GNOME Keyring, KWallet) through libsecret, one item
/// per printer under the schema `io.github.layerwatch.Layerwatch.AccessCode` with a `printer-id`
/// attribute. Every call is bounded by a time limit, so a missing or stuck keyring cannot hang the app.
public final class KeyringSecretStore: SecretStore, @unchecked Sendable {
    public static let schemaName = "io.github.layerwatch.Layerwatch.AccessCode"

    /// Why the keyring refused or did not answer; libsecret's message, which never holds the code.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Immutable after init and only read by libsecret, hence the unchecked Sendable.
    private let schema: UnsafeMutablePointer<SecretSchema>
    private let timeout: TimeInterval
    /// Guards the two below: the calls in progress, and whether `abandon` was called.
    private let callsLock = NSLock()
    private var inProgress: [ObjectIdentifier: CancelTimer] = [:]
    private var abandoned = false

    /// - Parameter timeout: how long one store, lookup or removal may take; an unlock prompt may
    ///   need the user, so it is longer than `isAvailable`'s.
    public init(timeout: TimeInterval = 30) {
        self.timeout = timeout
        let attributes = StringTable()
        attributes.insert("printer-id", nil) // the value is SECRET_SCHEMA_ATTRIBUTE_STRING, 0
        schema = secret_schema_newv(Self.schemaName, SECRET_SCHEMA_NONE, attributes.table)
    }

    deinit { secret_schema_unref(schema) }

    /// True when a Secret Service answers on the session bus within `limit` seconds; false without
    /// a session bus, without a keyring daemon, or when either does not answer.
    public func isAvailable(within limit: TimeInterval = 2) -> Bool {
        (try? call(limit: limit) { cancellable, error -> Bool in
            guard let service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, cancellable, &error) else {
                return false
            }
            g_object_unref(service)
            return true
        }) ?? false
    }

    /// Throws when the keyring does not keep it: an error (a dismissed prompt, a locked keyring, no
    /// answer in time), or a false answer without one.
    public func store(accessCode: String, for printerID: UUID, label: String) throws {
        let attributes = Self.attributes(printerID)
        let stored = try call(limit: timeout) { cancellable, error in
            secret_password_storev_sync(schema, attributes.table, SECRET_COLLECTION_DEFAULT, label, accessCode,
                                        cancellable, &error)
        }
        guard stored != 0 else { throw Failure(description: tr("the keyring did not keep it")) }
    }

    public func accessCode(for printerID: UUID) throws -> String? {
        let attributes = Self.attributes(printerID)
        return try call(limit: timeout) { cancellable, error -> String? in
            guard let code = secret_password_lookupv_sync(schema, attributes.table, cancellable, &error) else {
                return nil
            }
            defer { secret_password_free(code) }
            return String(cString: code)
        }
    }

    public func removeAccessCode(for printerID: UUID) throws {
        let attributes = Self.attributes(printerID)
        _ = try call(limit: timeout) { cancellable, error in
            secret_password_clearv_sync(schema, attributes.table, cancellable, &error)
        }
    }

    public func abandon() {
        let calls = callsLock.withLock {
            abandoned = true
            return Array(inProgress.values)
        }
        calls.forEach { $0.fire() }
    }

    private static func attributes(_ printerID: UUID) -> StringTable {
        let table = StringTable()
        table.insert("printer-id", printerID.uuidString)
        return table
    }

    /// Runs a blocking libsecret call with a cancellable that fires after `limit` seconds, and
    /// turns the GError it sets into `Failure`.
    private func call<T>(limit: TimeInterval,
                         _ body: (UnsafeMutablePointer<GCancellable>, inout UnsafeMutablePointer<GError>?) -> T) throws -> T {
        let cancellable = g_cancellable_new()!
        defer { g_object_unref(cancellable) }
        let timer = CancelTimer(cancellable)
        let wasAbandoned = callsLock.withLock {
            if !abandoned { inProgress[ObjectIdentifier(timer)] = timer }
            return abandoned
        }
        guard !wasAbandoned else { throw Failure(description: tr("Layerwatch stopped waiting for the keyring")) }
        defer { _ = callsLock.withLock { inProgress.removeValue(forKey: ObjectIdentifier(timer)) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) { timer.fire() }
        var error: UnsafeMutablePointer<GError>?
        let result = body(cancellable, &error)
        guard let error else { return result }
        defer { g_error_free(error) }
        if error.pointee.domain == g_io_error_quark(), error.pointee.code == G_IO_ERROR_CANCELLED.rawValue {
            if callsLock.withLock({ abandoned }) { throw Failure(description: tr("Layerwatch stopped waiting for the keyring")) }
            throw Failure(description: String(format: tr("the keyring did not answer within %ld s"), Int(limit.rounded(.up))))
        }
        // The user is told in their own terms; libsecret's and D-Bus's own words go to the log.
        StreamLog.log(.info, "keyring: \(String(cString: error.pointee.message))")
        throw Failure(description: Self.words(for: error.pointee))
    }

    /// What went wrong with the keyring, as the user would say it.
    private static func words(for error: GError) -> String {
        if error.domain == secret_error_get_quark(), error.code == SECRET_ERROR_IS_LOCKED.rawValue {
            return tr("the keyring is locked")
        }
        if error.domain == g_dbus_error_quark(),
           [G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND]
            .map { gint($0.rawValue) }.contains(error.code) {
            return tr("no keyring is running")
        }
        return tr("the keyring refused the request")
    }
}

/// Holds its own reference to a GCancellable so the timer may fire after the call has returned.
private final class CancelTimer: @unchecked Sendable {
    private let cancellable: UnsafeMutablePointer<GCancellable>

    init(_ cancellable: UnsafeMutablePointer<GCancellable>) {
        g_object_ref(cancellable)
        self.cancellable = cancellable
    }

    deinit { g_object_unref(cancellable) }

    func fire() { g_cancellable_cancel(cancellable) }
}

/// A GHashTable of owned C strings, the shape libsecret's attribute and schema tables take.
private final class StringTable {
    let table: OpaquePointer

    init() { table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free) }

    deinit { g_hash_table_unref(table) }

    func insert(_ key: String, _ value: String?) {
        g_hash_table_insert(table, g_strdup(key), value.map { UnsafeMutableRawPointer(g_strdup($0)) } ?? nil)
    }
}
