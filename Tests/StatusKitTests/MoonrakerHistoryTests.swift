import Foundation
@testable import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Moonraker's job history (`/server/history/list`) as the journal reads it: the jobs that ended,
/// every value checked and the list bounded, from a hostile answer and from the real fake
/// (Tests/Servers/moonraker_server.py); and the live status of a job under way carrying its
/// history `job_id`.
final class MoonrakerHistoryTests: XCTestCase {
    private let start = 1_765_000_000.0

    private func job(_ id: Any, _ status: Any, file: Any = "part.gcode", start: Any? = nil, end: Any? = nil,
                     filament: Any = 1234.5) -> [String: Any] {
        ["job_id": id, "filename": file, "status": status, "start_time": start ?? self.start, "end_time": end ?? self.start + 3600,
         "print_duration": 3500, "total_duration": 3600, "filament_used": filament, "metadata": [:]]
    }

    func testOnlyEndedJobsWithSaneValuesAreRead() {
        let answer: [String: Any] = ["result": ["count": 12, "jobs": [
            job("00000C", "in_progress", end: NSNull()),
            job("00000B", "completed", file: "benchy.gcode", filament: 980.25),
            job("00000A", "cancelled"),
            job("000009", "error"),
            job("000008", "klippy_shutdown"),
            job("000007", "interrupted"),
            job("../../etc", "completed"),
            job(String(repeating: "1", count: 33), "completed"),
            job(42, "completed"),
            job("000006", "exploded"),
            job("000005", "completed", end: start - 1),
            job("000004", "completed", start: "soon"),
            job("000003", "completed", start: Double.nan),
            job("000002", "completed", start: -5),
            "not a job",
            job("000001", "completed", file: String(repeating: "x", count: 2000), filament: -7),
        ]]]
        let read = MoonrakerHistory.prints(from: answer)
        XCTAssertEqual(read.map(\.jobID), ["00000B", "00000A", "000009", "000008", "000007", "000001"],
                       "the job under way, bad ids, unknown states and impossible times are dropped")
        XCTAssertEqual(read.map(\.ending), [.finished, .cancelled, .failed, .failed, .failed, .finished])
        XCTAssertEqual(read[0].job, "benchy.gcode")
        XCTAssertEqual(read[0].filamentUsed, 980.25)
        XCTAssertEqual(read[0].started, Date(timeIntervalSince1970: start))
        XCTAssertEqual(read[0].ended, Date(timeIntervalSince1970: start + 3600))
        XCTAssertNil(read[0].words)
        XCTAssertNil(read[1].words, "a cancelled print is no failure")
        XCTAssertEqual(read[2...4].map(\.words), ["The print stopped with an error", "Klipper shut down during the print",
                                                  "The print was interrupted"])
        XCTAssertNil(read[5].job, "a file name past reason is none")
        XCTAssertNil(read[5].filamentUsed, "a negative length is none")
        XCTAssertEqual(MoonrakerHistory.jobUnderWay("part.gcode", in: answer), "00000C")
        XCTAssertNil(MoonrakerHistory.jobUnderWay("other.gcode", in: answer), "the newest job is another file's")

        XCTAssertEqual(MoonrakerHistory.prints(from: ["result": ["jobs": "many"]]), [])
        XCTAssertEqual(MoonrakerHistory.prints(from: ["error": ["code": 404]]), [])
        let many = (1...80).map { job(String(format: "%06X", 100 - $0), "completed") }
        XCTAssertEqual(MoonrakerHistory.prints(from: ["result": ["jobs": many]]).count, ListLimit.historyJobs)
    }

    private func moonraker(jobs: [[String: Any]]) throws -> TestServer {
        let server = try TestServer(script: "moonraker_server.py")
        addTeardownBlock { server.stop() }
        server.send(["cmd": "history", "jobs": jobs])
        XCTAssertNotNil(server.waitFor("done") { $0.string("cmd") == "history" })
        return server
    }

    func testTheEndpointAsksTheLastFiftyJobsOfItsHost() throws {
        let server = try moonraker(jobs: [job("000002", "in_progress", end: NSNull()), job("000001", "cancelled", file: "cube.gcode")])
        let read = try StatusEndpoint.moonraker(host: "127.0.0.1", port: server.port, apiKey: nil).printerHistory()
        XCTAssertEqual(read.map(\.jobID), ["000001"])
        XCTAssertEqual(read.first?.job, "cube.gcode")
        XCTAssertEqual(read.first?.ending, .cancelled)
        let paths = server.events(named: "request").compactMap { $0.string("path") }
        XCTAssertEqual(paths, ["/server/history/list?limit=50&order=desc"])
    }

    func testAJobUnderWayCarriesItsHistoryID() throws {
        let server = try moonraker(jobs: [job("00002A", "in_progress", file: "benchy.gcode", end: NSNull())])
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: server.port, apiKey: nil))
        recorder.awaitStatus(10, "standby") { $0.state == .idle }
        XCTAssertNil(recorder.all.last?.status?.jobID)
        server.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "benchy.gcode"]]])
        let printing = recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(printing?.jobID, "00002A")
    }
}
