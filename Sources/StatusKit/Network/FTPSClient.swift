import Foundation
import Glibc
import StreamKit

/// An implicit-FTPS client (TLS from the first byte, the commands of RFC 959 and RFC 4217) for what
/// a Bambu printer's storage takes (PROTOCOLS.md §14): log in, store one file through a passive
/// data connection that resumes the control connection's TLS session, delete one, quit. The file
/// goes from disk through one fixed buffer, so its size never shows in memory; replies are read in
/// bounded lines, and the passive address's host is always the control connection's (a printer
/// names its own address, which may be wrong, and an address it names is not followed elsewhere).
final class FTPSClient {
    /// How long one reply, read or write may take.
    static let timeout: TimeInterval = 15
    /// How much of the file is read and sent at a time.
    static let chunkSize = 256 * 1024
    /// The longest reply line kept.
    static let maximumLine = 4096

    /// A server reply: its code and its last line.
    struct Reply {
        let code: Int
        let text: String
    }

    private let host: String
    private let control: TLSStream
    private var pending: [UInt8] = []
    /// The file the server may hold part of: a STOR whose data connection opened and did not end
    /// with the whole file.
    private(set) var partial: String?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)

    /// Connects to `host:port`, logs in as `user` (530 is a rejected password) and asks for binary
    /// transfers over private (TLS) data connections.
    init(host: String, port: Int, user: String, password: String, stop: StopSignal) throws(StatusFailure) {
        self.host = host
        control = try TLSStream(host: host, port: port, timeout: Self.timeout, stop: stop)
        try expect(reply(), 220)
        var answer = try command("USER \(user)")
        if answer.code == 331 { answer = try command("PASS \(password)") }
        if answer.code == 530 { throw .authRejected }
        try expect(answer, 230)
        try expect(command("PBSZ 0"), 200)
        try expect(command("PROT P"), 200)
        try expect(command("TYPE I"), 200)
    }

    deinit {
        buffer.deallocate()
    }

    /// Stores the file at `path` as `name` at the storage's root, calling `progress` with the bytes
    /// sent after each chunk. False when `stop` came first: the data connection is closed early and
    /// the printer keeps the part that arrived (`partial`), for the caller to `delete`.
    func store(_ name: String, from path: String, stop: StopSignal, progress: (Int64) -> Void) throws(StatusFailure) -> Bool {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw .protocolError(PrintFileProblem.unreadable.userMessage) }
        defer { Glibc.close(file) }
        let port = try passivePort()
        try send("STOR \(name)")
        // vsftpd accepts the data connection after STOR, says 150, and only then answers its handshake.
        var data: TLSStream?
        do {
            data = try TLSStream(host: host, port: port, timeout: Self.timeout, stop: stop, resuming: control)
        } catch {
            throw stop.isStopped ? error : dataFailure(error)
        }
        let opened = try reply()
        guard opened.code == 150 || opened.code == 125 else { throw refusal(opened) }
        partial = name
        var sent: Int64 = 0
        var finished = false
        while !stop.isStopped {
            let count = Glibc.read(file, buffer.baseAddress, buffer.count)
            guard count >= 0 else { throw .protocolError(PrintFileProblem.unreadable.userMessage) }
            if count == 0 {
                finished = true
                break
            }
            do {
                try data?.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            } catch {
                if stop.isStopped { break }
                data = nil
                throw dataFailure(error)
            }
            sent += Int64(count)
            progress(sent)
        }
        // The server sees the file's end, or its early end, and answers.
        if finished { data?.finish() }
        data = nil
        control.interrupt = nil
        let ended = try reply()
        if !finished { return false }
        guard ended.code == 226 || ended.code == 250 else { throw refusal(ended) }
        partial = nil
        return true
    }

    /// Deletes `name`; whether the server said it did.
    @discardableResult
    func delete(_ name: String) -> Bool {
        control.interrupt = nil
        return (try? command("DELE \(name)"))?.code == 250
    }

    /// Says goodbye, without waiting long for the answer.
    func quit() {
        control.interrupt = nil
        _ = try? send("QUIT")
        control.close()
    }

    /// The data port the server opens: EPSV's `(|||port|)`, else PASV's `(h1,h2,h3,h4,p1,p2)`.
    private func passivePort() throws(StatusFailure) -> Int {
        let extended = try command("EPSV")
        if extended.code == 229, let port = Self.extendedPort(extended.text) { return port }
        let plain = try command("PASV")
        guard plain.code == 227, let port = Self.plainPort(plain.text) else { throw refusal(plain) }
        return port
    }

    static func extendedPort(_ text: String) -> Int? {
        guard let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") else { return nil }
        let fields = text[text.index(after: open)..<close].split(separator: "|", omittingEmptySubsequences: false)
        guard fields.count == 5, let port = Int(fields[3]), (1...65_535).contains(port) else { return nil }
        return port
    }

    static func plainPort(_ text: String) -> Int? {
        guard let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") else { return nil }
        let numbers = text[text.index(after: open)..<close].split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 6, numbers.allSatisfy({ (0...255).contains($0) }) else { return nil }
        let port = numbers[4] * 256 + numbers[5]
        return port > 0 ? port : nil
    }

    private func command(_ line: String) throws(StatusFailure) -> Reply {
        try send(line)
        return try reply()
    }

    /// Sends one command line; a name that would break the line is refused before anything goes.
    private func send(_ line: String) throws(StatusFailure) {
        guard !line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .protocolError(tr("the file's name cannot be sent to the printer"))
        }
        let bytes = Array((line + "\r\n").utf8)
        guard bytes.count <= Self.maximumLine else { throw .protocolError(tr("the file's name cannot be sent to the printer")) }
        buffer.copyBytes(from: bytes)
        try control.write(UnsafeRawBufferPointer(rebasing: buffer[..<bytes.count]))
    }

    /// The next reply, its continuation lines (`NNN-`) read past.
    private func reply() throws(StatusFailure) -> Reply {
        let first = try line()
        guard let code = Self.code(first) else {
            throw .protocolError(tr("the printer's FTP server answered something that is not FTP"))
        }
        var last = first
        if first.dropFirst(3).first == "-" {
            repeat { last = try line() } while !(Self.code(last) == code && last.dropFirst(3).first != "-")
        }
        return Reply(code: code, text: TerminalText.safe(String(last.prefix(200))))
    }

    private static func code(_ line: String) -> Int? {
        guard line.count >= 3, let code = Int(line.prefix(3)), (100...599).contains(code) else { return nil }
        return code
    }

    /// One line of the control connection, without its line end.
    private func line() throws(StatusFailure) -> String {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                pending.removeFirst(end + 1)
                return text
            }
            guard pending.count < Self.maximumLine else {
                throw .protocolError(tr("the printer's FTP server answered something that is not FTP"))
            }
            let count = try control.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<1024]))
            guard count > 0 else { throw .protocolError(tr("the printer closed the connection")) }
            pending += UnsafeRawBufferPointer(rebasing: buffer[..<count])
        }
    }

    /// Why the data connection failed: in the server's words when it gave them (vsftpd's 522 for a
    /// data connection that did not resume the session, 426 for a transfer it broke off), else `failure`.
    private func dataFailure(_ failure: StatusFailure) -> StatusFailure {
        control.interrupt = nil
        guard let answer = try? reply(), answer.code >= 400 else { return failure }
        return refusal(answer)
    }

    private func expect(_ reply: Reply, _ code: Int) throws(StatusFailure) {
        guard reply.code == code else { throw refusal(reply) }
    }

    /// A reply that refuses what was asked, in the server's words.
    private func refusal(_ reply: Reply) -> StatusFailure {
        .protocolError(String(format: tr("the printer's FTP server refused: %@"), reply.text))
    }
}
