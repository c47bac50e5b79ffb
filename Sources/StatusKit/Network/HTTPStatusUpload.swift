import Foundation
import StreamKit

/// What the HTTP families' uploads share: the file streamed to the printer's API with its key
/// (`HTTPUpload`), the answer read as a command's (`HTTPStatusAPI.outcome`: 2xx started, 401/403 a
/// rejected key, another 4xx or 5xx the printer's reason), and after a cancel the partial file
/// deleted where the API has a way to.
extension HTTPStatusAPI {
    /// How the part of a file an interrupted upload left on the printer is deleted: `DELETE` on
    /// its path through this API, or the family's own way (Creality's is on its status websocket).
    enum Removal {
        case delete(path: String)
        case other(() -> Void)
    }

    /// How the file goes: a multipart form's part `field` after the text `fields`, or the raw body.
    enum UploadForm {
        case multipart(field: String, fields: [(String, String)])
        case raw
    }

    /// How long an upload may go without a byte moving, or the printer without answering once
    /// the file is sent (it may check a large file first).
    static let uploadStall: TimeInterval = 60

    /// Sends `file` to `path` with `method` as `form` says, with `extra` headers beside the key;
    /// after a cancel (or a failure once bytes went), deletes what the printer kept as `removal`
    /// says, when there is a way.
    /// `judge` reads the printer's answer, keeping `secrets` out of its words (by default as a
    /// command's: its status).
    func upload(_ file: PrintFile, to path: String, method: String = "POST", form: UploadForm, extra: [(String, String)] = [],
                removal: Removal?, stop: StopSignal, progress: @escaping @Sendable (UploadProgress) -> Void,
                judge: (HTTPFetch.Answer, _ secrets: [String]) -> UploadOutcome = HTTPStatusAPI.judge) -> UploadOutcome {
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL else { return .failed(.protocolError("bad path")) }
        let body: HTTPUpload.Body
        switch form {
        case .multipart(let field, let fields):
            body = .multipart(file: file.url, name: file.name, size: file.size, field: field, fields: fields)
        case .raw:
            body = .raw(file: file.url, size: file.size)
        }
        let total = file.size
        var moved = false
        do throws(HTTPFetch.Failure) {
            let reply = try HTTPUpload.send(url, method: method, body: body, headers: headers + extra, secrets: secrets,
                                            digest: digest, timeout: Self.uploadStall, stop: stop) {
                moved = true
                progress(UploadProgress(sent: $0, total: total))
            }
            return judge(reply, secrets)
        } catch {
            switch moved ? removal : nil {
            case .delete(let path)?: remove(path)
            case .other(let delete)?: delete()
            case nil: break
            }
            return stop.isStopped ? .cancelled : .failed(StatusFailure(error.failure))
        }
    }

    /// An upload's answer read as a command's: 2xx started, 401/403 a rejected key, 404 no such
    /// API, another status a refusal with the printer's reason.
    static func judge(_ reply: HTTPFetch.Answer, secrets: [String]) -> UploadOutcome {
        switch outcome(reply, secrets: secrets) {
        case .done: return .started
        case .failed(let failure): return .failed(failure)
        case .refused(let reason?): return .refused(reason)
        default: return .refused(String(format: tr("HTTP status %ld"), reply.status))
        }
    }

    /// `name` as one segment of a URL's path: a slash, a question mark or a space in it cannot
    /// leave it.
    static func pathSegment(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }

    /// Deletes what an interrupted upload left at `path`, waiting for the answer (a printer that
    /// kept nothing answers 404: nothing to do).
    private func remove(_ path: String) {
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL else { return }
        _ = try? HTTPFetch.post(url, json: nil, method: "DELETE", headers: headers, secrets: secrets, digest: digest,
                                timeout: Self.timeout)
    }
}
