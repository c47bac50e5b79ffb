import Foundation
import GtkKit
import StatusKit
import StreamKit

/// "Find Cameras": asks a Klipper or OctoPrint host, or a go2rtc restreamer, for its cameras (and
/// whether each can be reached) off the main loop and answers on it. A new search or `cancel()`
/// stops the one in flight, whose answer is then dropped.
@MainActor
final class CameraSearch {
    /// What a search asks.
    enum Target: Sendable {
        /// A Klipper or OctoPrint host's API.
        case statusAPI(StatusEndpoint)
        /// A go2rtc restreamer's API: its streams.
        case go2rtc(Go2RTCImport)

        /// Its key or password, to mask in the addresses listed.
        var secrets: [String] {
            switch self {
            case .statusAPI(let endpoint): return endpoint.secrets
            case .go2rtc(let api): return api.secrets
            }
        }

        /// The cameras it lists; a printer's host's each marked when nothing answers where it
        /// streams (go2rtc's streams are all served by the go2rtc that just answered).
        func cameras(stop: StopSignal) throws(StatusFailure) -> [ImportedCamera] {
            switch self {
            case .statusAPI(let endpoint): return CameraReachability.marked(try CameraImport.cameras(at: endpoint, stop: stop), stop: stop)
            case .go2rtc(let api): return try api.cameras(stop: stop)
            }
        }
    }

    private let question = StatusQuestion<[ImportedCamera]>()

    var isRunning: Bool { question.isRunning }

    /// Asks `target` for its cameras; `answer` runs on the main loop unless the search is
    /// cancelled or replaced first.
    func start(_ target: Target, answer: @escaping @MainActor (Result<[ImportedCamera], StatusFailure>) -> Void) {
        question.start({ stop throws(StatusFailure) in try target.cameras(stop: stop) }, answer: answer)
    }

    func cancel() {
        question.cancel()
    }
}
