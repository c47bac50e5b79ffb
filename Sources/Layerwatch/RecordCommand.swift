import ArgumentParser
import Foundation
import PrinterKit
import StreamKit

/// `layerwatch record URL --seconds N -o FILE`: the app's recording without a window. One camera
/// connection; the camera's pictures copied into a Matroska file as they come (H.264 as sent, a JPEG
/// camera's pictures as MJPEG), never re-encoded and decoded only at keyframes; reconnects as the
/// app does, the file continuing. Ctrl+C stops it early with a whole file.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: tr("Record a camera into a Matroska file, without re-encoding."),
        discussion: tr("Exit codes: 0 recorded, 2 invalid URL or arguments, 3 access code rejected, 4 refused, 5 timeout or unreachable, 6 not found, 7 unsupported codec, 8 end of stream, 9 protocol error, 11 the file could not be written (the disk is full: what was recorded is kept), 12 no picture within 30 s. Access codes are replaced by *** in everything printed.")
    )

    /// How long the camera may take to send its first picture.
    static let firstPictureLimit = 30.0

    @OptionGroup var target: CameraTarget<RecordCommand>

    @OptionGroup var code: CodeFromStdin

    @Option(name: .long, help: ArgumentHelp(tr("How many seconds to record, from the first picture.")))
    var seconds: Double

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp(tr("The file to write (.mkv); it must not exist yet, nor be a symbolic link.")))
    var output: String

    func validate() throws {
        try code.validate(url: target.url)
        guard seconds > 0, seconds.isFinite else { throw ValidationError(tr("--seconds must be more than 0.")) }
        guard (try? FileManager.default.destinationOfSymbolicLink(atPath: output)) == nil else {
            throw ValidationError(String(format: tr("“%@” is a symbolic link: choose another file."), output))
        }
        guard !FileManager.default.fileExists(atPath: output) else {
            throw ValidationError(String(format: tr("“%@” exists already: choose another file."), output))
        }
    }

    func run() throws {
        let source: StreamSource
        do {
            source = try target.source(code: code)
        } catch {
            Self.complain(String(format: tr("error: %@"), "\(error)"))
            throw ExitCode(2)
        }
        let session = StreamSession(source: source, terms: Printer.cameraTerms(of: source))
        let states = DispatchQueue(label: "layerwatch.record.states")
        var failure: StreamFailure?
        let consumer = session.attach(executor: states, visible: false, onState: { state in
            switch state {
            case .failed(let failed): failure = failed
            case .reconnecting(_, let retryAt, let cause):
                Self.complain(String(format: tr("%@ Reconnecting in %.0f s."), cause.userMessage(in: session.terms), retryAt.timeIntervalSinceNow))
            default: break
            }
        }, onFrame: { _ in })
        // A file-size limit (`ulimit -f`) then fails the write like a full disk, rather than killing us.
        signal(SIGXFSZ, SIG_IGN)
        let recording = session.startRecording(to: URL(fileURLWithPath: output))
        let interrupted = StopSignal()
        let signals = Self.stop(interrupted, on: [SIGINT, SIGTERM])
        let started = Date()
        while true {
            let status = recording.current
            let stoppedByCamera = states.sync { failure }
            if status.isFinished || stoppedByCamera != nil || status.seconds >= seconds { break }
            if status.files.isEmpty, Date().timeIntervalSince(started) > Self.firstPictureLimit { break }
            guard interrupted.wait(seconds: 0.1) else { break }
        }
        withExtendedLifetime(signals) {}
        recording.stop()
        recording.waitUntilFinished()
        states.sync { consumer.detach() }
        session.stop()
        let final = recording.current
        if let failed = final.failureMessage {
            Self.complain(failed)
            throw ExitCode(11)
        }
        if final.files.isEmpty {
            if let failure = states.sync(execute: { failure }) {
                Self.complain(failure.userMessage(in: session.terms))
                throw ExitCode(ProbeReportFormatter.exitCode(forKind: failure.kind))
            }
            Self.complain(String(format: tr("No picture came from the camera within %.0f s."), Self.firstPictureLimit))
            throw ExitCode(12)
        }
        let size = ByteCountFormatter.string(fromByteCount: final.bytes, countStyle: .file)
        print(String(format: tr("Recorded %.1f s (%@) into %@"), final.seconds, size, final.files.map(\.path).joined(separator: ", ")))
    }

    /// Stops `signal` when one of `numbers` arrives (Ctrl+C: the recording then ends with a whole
    /// file); the sources must be kept while that should hold.
    private static func stop(_ signal: StopSignal, on numbers: [Int32]) -> [any DispatchSourceSignal] {
        numbers.map { number in
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { signal.stop() }
            source.resume()
            return source
        }
    }

    /// One line on standard error, with anything a camera sent made harmless for a terminal.
    private static func complain(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.safe(text) + "\n").utf8))
    }
}

extension RecordCommand: CameraTargetHelp {
    static var urlHelp: String { tr("The camera: rtsps://…, rtsp://…, bambu-jpeg://IP?code=CODE, http(s)://…, webrtc:http(s)://… or a file.") }
    static var printerHelp: String { tr("Record this saved printer's camera (its name, number or id), its access code taken from the keyring.") }
}
