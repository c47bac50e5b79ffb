import CMosquitto
import Foundation
import StreamKit

/// Sending G-code to an Elegoo Centauri Carbon through the HTTP server on its SDCP port (the SDCP
/// V3.0.0 specification, "Mainboard HTTP Server Interface"; ELEGOO-3D/elegoo-link,
/// elegoo_fdm_cc_http_transfer.cpp): the file's MD5 first, read from disk in chunks, then one
/// multipart POST to `/uploadFile/upload` per MiB with `S-File-MD5`, `Check` 1 (the printer checks
/// the MD5 once the last chunk is in), `Offset`, `Uuid` (one for all chunks), `TotalSize` and the
/// chunk as `File`; each is answered `{"code":"000000",…}`, or a failure whose `common_field`
/// message is an error code. The printer keeps the file under `/local/`, and
/// `PrintCommand.printFile` (Cmd 128) starts it through the status connection. Each chunk is
/// streamed from disk by `HTTPUpload`, as the other families' uploads are. A transfer cancelled or
/// broken once bytes went is ended and its part deleted (`removePartial`), never started.
enum ElegooUpload {
    /// The most the printer takes in one POST.
    static let chunkSize = 1024 * 1024
    /// How long one chunk's POST may take.
    static let timeout: TimeInterval = 60
    /// How long each answer of the removal after an interrupted transfer may take.
    static let removalWait: TimeInterval = 5
    static let path = "/uploadFile/upload"

    static func send(_ file: PrintFile, to endpoint: StatusEndpoint, stop: StopSignal,
                     progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        let unreadable = UploadOutcome.failed(.protocolError(PrintFileProblem.unreadable.userMessage))
        guard let url = URL(string: "http://\(StreamSource.bracketed(endpoint.host)):\(endpoint.port)\(path)") else {
            return .failed(.protocolError(tr("the printer's name could not be resolved")))
        }
        guard !file.name.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\"" }) else {
            return .failed(.protocolError(tr("the file's name cannot be sent to the printer")))
        }
        guard let digest = md5(of: file.url, stop: stop) else { return stop.isStopped ? .cancelled : unreadable }
        let uuid = ElegooRequests.newID()
        // Whether any chunk's bytes went, so the printer may hold part of the file.
        var moved = false
        func interrupted(_ outcome: UploadOutcome) -> UploadOutcome {
            if moved { removePartial(file.name, transfer: uuid, at: endpoint) }
            return outcome
        }
        var offset: Int64 = 0
        while offset < file.size {
            if stop.isStopped { return interrupted(.cancelled) }
            let size = min(Int64(chunkSize), file.size - offset)
            let fields = [("S-File-MD5", digest), ("Check", "1"), ("Offset", String(offset)), ("Uuid", uuid),
                          ("TotalSize", String(file.size))]
            let answer: HTTPFetch.Answer
            do {
                answer = try HTTPUpload.send(url, body: .multipart(file: file.url, name: file.name, offset: offset, size: size,
                                                                   field: "File", fields: fields),
                                             timeout: timeout, stop: stop) { _ in moved = true }
            } catch {
                return interrupted(stop.isStopped ? .cancelled : .failed(StatusFailure(error.failure)))
            }
            if let refusal = refusal(answer) { return .refused(refusal) }
            offset += size
            progress(UploadProgress(sent: offset, total: file.size))
        }
        return .uploaded(remoteName: file.name)
    }

    /// Ends the printer's side of the interrupted transfer `uuid` and deletes what it kept of the
    /// file `name`, on a short connection of its own (`ElegooConnection.asking`, as `ElegooHistory`
    /// asks): Cmd 255 (Terminate File Transfer: `Uuid`, `FileName`), then Cmd 259 (Batch Delete
    /// Files: `FileList` with the file's path), as the SDCP V3.0.0 specification has them. Their
    /// answers change nothing: a printer that kept nothing says so (Ack 1 or 3, the path in
    /// `ErrData`), and one that cannot be reached keeps the part, never started.
    static func removePartial(_ name: String, transfer uuid: String, at endpoint: StatusEndpoint) {
        _ = try? ElegooConnection.asking(endpoint, wait: removalWait, stop: nil) { ask throws(StatusFailure) in
            _ = try ask(.endTransfer, ["Uuid": uuid, "FileName": name])
            _ = try ask(.deleteFiles, ["FileList": [ElegooRequests.localPath(name)]])
        }
    }

    /// Why the printer did not take a chunk, in words; nil when it did (`code` "000000").
    static func refusal(_ answer: HTTPFetch.Answer) -> String? {
        guard (200..<300).contains(answer.status) else { return String(format: tr("HTTP status %ld"), answer.status) }
        guard let object = try? JSONValue.object(answer.body) else {
            return tr("The Elegoo printer's answer to the upload makes no sense")
        }
        if JSONValue.string(object["code"]) == "000000" { return nil }
        let messages = object["messages"] as? [[String: Any]] ?? []
        // A field's own complaint is in words; `common_field` carries a number.
        if let named = messages.first(where: { JSONValue.string($0["field"]) != "common_field" }),
           let text = JSONValue.string(named["message"]).map({ TerminalText.safe(String($0.prefix(200))) }), !text.isEmpty {
            return String(format: tr("The Elegoo printer refused the file: %@"), text)
        }
        let code: Int? = messages.compactMap { PrinterNumber.int($0["message"], in: -1_000_000...1_000_000) }.first
        switch code {
        case .some(-1), .some(-2): return tr("The Elegoo printer lost its place in the file: send it again")
        case .some(-3): return tr("The Elegoo printer could not store the file: check its free space")
        default: return tr("The Elegoo printer refused the file")
        }
    }

    /// The file's MD5 in lowercase hex, read in chunks; nil when it cannot be read or `stop` came.
    static func md5(of url: URL, stop: StopSignal) -> String? {
        OpenSSLLibrary.ready
        guard let handle = try? FileHandle(forReadingFrom: url), let context = EVP_MD_CTX_new() else { return nil }
        defer {
            EVP_MD_CTX_free(context)
            try? handle.close()
        }
        guard EVP_DigestInit_ex(context, EVP_md5(), nil) == 1 else { return nil }
        while true {
            if stop.isStopped { return nil }
            let chunk: Data
            do {
                // nil at the file's end.
                guard let read = try handle.read(upToCount: chunkSize), !read.isEmpty else { break }
                chunk = read
            } catch {
                return nil
            }
            chunk.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return nil }
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
