import Foundation
import StreamKit

/// The spool a Moonraker host tracks in Spoolman, asked for no more than needed: the active spool's
/// id (`GET /server/spoolman/spool_id`, which Moonraker answers from memory) with each status poll,
/// the spool itself (`POST /server/spoolman/proxy` for Spoolman's `GET /v1/spool/ID`, version 2
/// answer) only when the id changes or its details are a minute old. A host without Spoolman (404)
/// or a request failing leaves the filament unknown and is asked again a minute later; it never
/// touches the printer's status.
final class SpoolmanWatch {
    /// How long a spool's details, or a failed request, stand before Spoolman is asked again.
    static let refreshInterval: TimeInterval = 60
    static let idPath = "/server/spoolman/spool_id"
    static let proxyPath = "/server/spoolman/proxy"

    private var spoolID: Int?
    private var spool: FilamentSlot?
    private var fetched = Date.distantPast
    private var quietUntil = Date.distantPast

    /// The filament as Spoolman knows it now: the active spool, or nothing.
    func filament(from api: HTTPStatusAPI, stop: StopSignal, now: Date = Date()) -> Filament {
        guard now >= quietUntil else { return current }
        let id: Int?
        do {
            let answer = try api.object(Self.idPath, stop: stop)
            id = PrinterNumber.int((answer["result"] as? [String: Any])?["spool_id"], in: 1...Int(Int32.max))
        } catch {
            forget(until: now)
            return current
        }
        guard let id else {
            spoolID = nil
            spool = nil
            return current
        }
        if id != spoolID || now.timeIntervalSince(fetched) >= Self.refreshInterval {
            spoolID = id
            fetched = now
            spool = details(of: id, from: api, stop: stop)
        }
        return current
    }

    private var current: Filament { Filament(slots: spool.map { [$0] } ?? []) }

    private func forget(until now: Date) {
        spoolID = nil
        spool = nil
        quietUntil = now.addingTimeInterval(Self.refreshInterval)
    }

    private func details(of id: Int, from api: HTTPStatusAPI, stop: StopSignal) -> FilamentSlot? {
        let request: [String: Any] = ["request_method": "GET", "path": "/v1/spool/\(id)", "use_v2_response": true]
        guard let answer = try? api.object(Self.proxyPath, posting: request, stop: stop),
              let spool = ((answer["result"] as? [String: Any])?["response"] as? [String: Any]) else { return nil }
        return SpoolmanSpool.slot(spool, id: id)
    }
}
