import CSQLite
import Foundation

/// One SQLite connection, used by one thread at a time (the journal's queue): SQL run, prepared
/// and stepped with Swift values, every failure a `SQLiteError`.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// Opens (creating) the database file at `path`; a statement that finds it locked retries for
    /// `busyTimeout` seconds before it fails with `SQLITE_BUSY`.
    init(path: String, busyTimeout: TimeInterval) throws {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard let opened else { throw SQLiteError(code: code, message: "out of memory") }
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, message: String(cString: sqlite3_errmsg(opened)))
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (one or more statements without parameters), ignoring any rows.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// The rows of `sql` with `values` bound to its parameters, each read by `row`.
    func rows<Row>(_ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteRow) -> Row) throws -> [Row] {
        let statement = try prepare(sql, values)
        defer { sqlite3_finalize(statement) }
        var rows: [Row] = []
        while try step(statement) { rows.append(row(SQLiteRow(statement: statement))) }
        return rows
    }

    /// Runs `sql` with `values` bound; how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
        let statement = try prepare(sql, values)
        defer { sqlite3_finalize(statement) }
        while try step(statement) {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs `body` in one transaction that takes the write lock at once (waiting up to the busy
    /// timeout for another writer), committed when it returns and rolled back when it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func prepare(_ sql: String, _ values: [SQLiteValue]) throws -> OpaquePointer {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil))
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement") }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let code = switch value {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .real(let number): sqlite3_bind_double(statement, position, number)
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, Self.transient)
            }
            if code != SQLITE_OK {
                sqlite3_finalize(statement)
                try check(code)
            }
        }
        return statement
    }

    /// Steps `statement`: true while it gives a row.
    private func step(_ statement: OpaquePointer) throws -> Bool {
        let code = sqlite3_step(statement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        try check(code)
        return false
    }

    private func check(_ code: Int32) throws {
        guard code != SQLITE_OK else { return }
        throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// SQLITE_TRANSIENT, a macro Swift cannot import: SQLite copies the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    init(_ text: String?) { self = text.map(SQLiteValue.text) ?? .null }
    init(_ number: Int?) { self = number.map { .integer(Int64($0)) } ?? .null }
    init(_ number: Double?) { self = number.map(SQLiteValue.real) ?? .null }
}

/// The current row of a statement being stepped, read by column index.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func text(_ column: Int32) -> String? {
        sqlite3_column_text(statement, column).map { String(cString: $0) }
    }
    func integer(_ column: Int32) -> Int? { isNull(column) ? nil : Int(sqlite3_column_int64(statement, column)) }
    func real(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(statement, column) }
}
