import Foundation
import StreamKit

/// The SDCP V3 requests Layerwatch sends an Elegoo Centauri Carbon and the answers it reads
/// (../shared/PROTOCOLS.md §11; the SDCP V3.0.0 specification; WalkerFrederick/sdcp-centauri-carbon
/// "Known Commands"): `{"Id":…,"Data":{"Cmd":N,"Data":{…},"RequestID":"<32 hex>","MainboardID":…,
/// "TimeStamp":…,"From":1},"Topic":"sdcp/request/<MainboardID>"}`, answered on
/// `sdcp/response/<MainboardID>` with the same RequestID and `Data.Data.Ack` (0 = done).
enum ElegooRequests {
    /// The commands Layerwatch sends: the status at once (0), start a stored file (128), pause
    /// (129), stop (130), continue (131), end a file transfer (255, "Terminate File Transfer"),
    /// delete files (259, "Batch Delete Files"), the history's task ids (320) and their details
    /// (321), the camera's video on (386, answered with `VideoUrl`) and the light (403).
    enum Command: Int {
        case status = 0, start = 128, pause = 129, stop = 130, resume = 131, endTransfer = 255, deleteFiles = 259
        case history = 320, historyDetails = 321, video = 386, light = 403
    }

    /// Where `from` says the request comes from: 1, "PC software via the web", as the printer's own
    /// web page sends.
    static let from = 1

    /// One request in one line; `id` its RequestID.
    static func request(_ command: Command, data: [String: Any] = [:], id: String, mainboard: String) -> String {
        let body: [String: Any] = ["Cmd": command.rawValue, "Data": data, "RequestID": id, "MainboardID": mainboard,
                                   "TimeStamp": Int(Date().timeIntervalSince1970), "From": from]
        let object: [String: Any] = ["Id": newID(), "Data": body, "Topic": "sdcp/request/\(mainboard)"]
        let text = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: text, as: UTF8.self)
    }

    /// Cmd 128's data for the file `name` that `ElegooUpload` stored: its path under `/local/`,
    /// from the first layer, with the options the printer's own clients send off (elegoo-link's
    /// elegoo_fdm_cc_message_adapter.cpp: bed levelling, the plate type, the timelapse).
    static func start(_ name: String) -> [String: Any] {
        ["Filename": localPath(name), "StartLayer": 0, "Calibration_switch": 0, "PrintPlatformType": 0, "Tlp_Switch": 0]
    }

    /// Where the printer keeps the file `name` that `ElegooUpload` sent: its onboard storage.
    static func localPath(_ name: String) -> String {
        "/local/" + name
    }

    /// The light switched on or off (`SecondLight`, the chamber light; its RGB strip left dark).
    static func light(_ on: Bool) -> [String: Any] {
        ["LightStatus": ["SecondLight": on, "RgbLight": [0, 0, 0]]]
    }

    /// A new 32-hex-digit identifier.
    static func newID() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// An answer: the request it answers, its command and its `Ack`, the `VideoUrl` a video
    /// request's answer carries, and its `Data` whole (a history's lists).
    struct Answer {
        let requestID: String?
        let command: Int?
        let ack: Int?
        let videoURL: String?
        let data: [String: Any]

        /// The answer in `message`; nil when it is none (a status).
        init?(_ message: [String: Any]) {
            guard let outer = message["Data"] as? [String: Any], outer["Cmd"] != nil else { return nil }
            let data = outer["Data"] as? [String: Any]
            self.data = data ?? [:]
            requestID = JSONValue.string(outer["RequestID"])
            command = PrinterNumber.int(outer["Cmd"], in: 0...65_535)
            ack = PrinterNumber.int(data?["Ack"], in: PrinterNumber.code)
            videoURL = JSONValue.string(data?["VideoUrl"]).map(ElegooRequests.videoURL)
        }

        /// What the answer makes of a print command: done for `Ack` 0, else the printer's refusal
        /// in words (an answer without an `Ack` is taken as done, as the printer's page takes it).
        var outcome: CommandOutcome {
            switch ack {
            case nil, 0?: return .done
            case 1?: return .refused(tr("the Elegoo printer cannot do that now (it is busy, or the print is not in a state for it)"))
            case 2?: return .refused(tr("the Elegoo printer did not find the print's file"))
            case 3?: return .refused(tr("the file's check failed on the Elegoo printer: send it again"))
            case 6?: return .refused(tr("the Elegoo printer does not know the file's format"))
            case let code?: return .refused(String(format: tr("the Elegoo printer answered with code %ld"), code))
            }
        }
    }

    /// The camera's `VideoUrl` as a URL: the printer sends it without a scheme (`IP:3031/video`).
    static func videoURL(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.contains("://") ? trimmed : "http://" + trimmed
    }
}
