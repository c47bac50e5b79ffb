import ArgumentParser
import Foundation
import PrinterKit
import StreamKit

/// `layerwatch probe URL`: the tool a user runs when a camera doesn't show. Headless; prints what
/// happened (redacted) and exits non-zero with the classified error on failure.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: tr("Connect to a camera URL, decode a few frames and report what happened."),
        discussion: tr("Exit codes: 0 ok, 2 invalid URL, 3 access code rejected, 4 refused, 5 timeout or unreachable,\n6 not found, 7 unsupported codec, 8 end of stream, 9 protocol error.\nAccess codes are replaced by *** in everything printed.")
    )

    @OptionGroup var target: CameraTarget<ProbeCommand>

    @OptionGroup var code: CodeFromStdin

    @Option(name: .long, help: ArgumentHelp(tr("Frames to decode before reporting success.")))
    var frames: Int = 30

    @Option(name: .long, help: ArgumentHelp(tr("Give up after this many seconds.")))
    var timeout: Double = 20

    @Flag(name: .long, help: ArgumentHelp(tr("Print the report as JSON.")))
    var json = false

    func validate() throws {
        try code.validate(url: target.url)
    }

    func run() throws {
        let source: StreamSource
        do {
            source = try target.source(code: code)
        } catch {
            FileHandle.standardError.write(Data((String(format: tr("error: %@"), TerminalText.safe("\(error)")) + "\n").utf8))
            throw ExitCode((error as? ProbeTarget.Failure)?.kind.map(ProbeReportFormatter.exitCode(forKind:)) ?? 2)
        }
        let report = StreamProbe.run(source: source, frames: max(1, frames), timeout: timeout, terms: Printer.cameraTerms(of: source))
        print(json ? ProbeReportFormatter.json(report) : ProbeReportFormatter.text(report))
        if let error = report.error { throw ExitCode(ProbeReportFormatter.exitCode(forKind: error.kind)) }
    }
}

extension ProbeCommand: CameraTargetHelp {
    static var urlHelp: String { tr("rtsps://bblp:CODE@IP:322/streaming/live/1 (Bambu X1/P2S/H2), bambu-jpeg://IP?code=CODE (Bambu P1/A1, port 6000), rtsp://…, http(s)://… (MJPEG or JPEG snapshot), webrtc:http(s)://…[#format=camera-streamer|creality] (WHEP, go2rtc, camera-streamer, Creality), a printer's status URL (elegoo://HOST, flashforge://HOST?serial=SERIAL: the camera it lists), or a file path.") }
    static var printerHelp: String { tr("Probe this saved printer (its name, number or id), its access code taken from the keyring.") }
}
