import Foundation
import StatusKit
import StreamKit

/// The dialog's "go2rtc restreamer" choice: go2rtc's API (host, port, optional `api:` username and
/// password) lists its streams, and each chosen one is saved as a generic RTSP camera
/// (`rtsp://HOST:8554/NAME`). The password is for the listing only; no printer keeps it.
extension PrinterDraft {
    /// go2rtc's API as typed (what lists its streams), or a message for each of the host, port and
    /// username that is wrong.
    public func go2rtcImport() -> Result<Go2RTCImport, Problems> {
        var messages: [Field: String] = [:]
        let api = go2rtcImport(messages: &messages)
        guard let api, messages.isEmpty else { return .failure(Problems(messages: messages)) }
        return .success(api)
    }

    /// One plain camera per chosen stream (a restreamer's streams are usually different printers'),
    /// named after it (after the typed name and it when a name is typed and several are chosen).
    func go2rtcPrinters(name: String, messages: inout [Field: String]) -> [Printer] {
        _ = go2rtcImport(messages: &messages)
        let streams = cameras.filter { !($0.url ?? "").isEmpty }
        if streams.isEmpty { messages[.cameras] = tr("Check at least one stream: “Find Cameras” lists the ones go2rtc has.") }
        var printers: [Printer] = []
        for stream in streams {
            let url = stream.url ?? ""
            do { _ = try StreamSource.parse(url) } catch { messages[.cameras] = "\(stream.name): \(error.description)" }
            let printerName = name.isEmpty ? stream.name : streams.count == 1 ? name : "\(name) — \(stream.name)"
            printers.append(Printer(id: printers.isEmpty ? id : UUID(), name: printerName, kind: .generic,
                                    cameras: [PrinterCamera(url: url)], notifies: notifies))
        }
        return printers
    }

    private func go2rtcImport(messages: inout [Field: String]) -> Go2RTCImport? {
        var host = ""
        do {
            host = try BambuCamera.validatedHost(self.host)
        } catch BambuCamera.InputError.emptyHost {
            messages[.host] = tr("Enter the address of the computer running go2rtc (the one you open its web page at).")
        } catch {
            messages[.host] = "\(error)"
        }
        let port = typedPort(usual: Go2RTCImport.apiPort, messages: &messages)
        let user = user.trimmingCharacters(in: .whitespaces)
        if user.contains(":") || user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            messages[.user] = tr("A username has no colon and no control characters: copy it again from go2rtc.yaml.")
        } else if user.isEmpty && !accessCode.isEmpty {
            messages[.user] = tr("Enter the username too (under api: in go2rtc.yaml), or leave both empty.")
        }
        guard !host.isEmpty else { return nil }
        return Go2RTCImport(host: host, port: port, user: user.isEmpty ? nil : user, password: user.isEmpty ? nil : accessCode)
    }
}
