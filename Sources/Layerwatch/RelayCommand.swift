import ArgumentParser
import Foundation
import PrinterKit
import StreamKit

/// `layerwatch relay URL`: a JPEG camera's pictures on standard output as MJPEG (the camera's JPEGs
/// one after another, unchanged), for a restreamer such as go2rtc's `exec:` source. One camera
/// connection, reconnected as the app does; ends with status 0 when the reader goes away.
struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: tr("Write a JPEG camera's pictures to standard output as MJPEG, for go2rtc's exec: source."),
        discussion: tr("Exit codes: 0 the reader went away, 2 invalid URL or not a JPEG camera, 3 access code rejected, 6 not found, 10 untrusted certificate. Other failures are retried. Access codes are replaced by *** in everything printed.")
    )

    @OptionGroup var target: CameraTarget<RelayCommand>

    func run() throws {
        let relay: JPEGRelay
        do {
            relay = try makeRelay()
        } catch {
            Self.complain(String(format: tr("error: %@"), "\(error)"))
            throw ExitCode(2)
        }
        signal(SIGPIPE, SIG_IGN)
        Self.whenReaderGoes { relay.stop() }
        let failure = relay.run(retrying: { failure, delay in
            Self.complain(String(format: tr("%@ Reconnecting in %.0f s."), failure.userMessage(in: Printer.cameraTerms(of: relay.source)), delay))
        }, send: Self.writeToStandardOutput)
        if let failure {
            Self.complain(failure.userMessage(in: Printer.cameraTerms(of: relay.source)))
            throw ExitCode(ProbeReportFormatter.exitCode(forKind: failure.kind))
        }
    }

    private func makeRelay() throws -> JPEGRelay {
        let source = try target.source()
        if let relay = JPEGRelay(source: source) { return relay }
        if case .rtsp = source {
            throw ProbeTarget.Failure(description: tr("relay passes JPEG cameras through; for an RTSP camera give go2rtc its URL directly"))
        }
        throw ProbeTarget.Failure(description: tr("relay passes JPEG cameras through (bambu-jpeg:// or http(s)://), not files"))
    }

    /// Writes all of `bytes` to standard output; false once it is closed (EPIPE) or fails otherwise.
    private static func writeToStandardOutput(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Calls `gone` (once, on another thread) when standard output is a pipe or socket whose reader
    /// has closed it, so a relay waiting for the camera notices at once rather than at its next write.
    private static func whenReaderGoes(_ gone: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            var watched = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while poll(&watched, 1, -1) < 0 && errno == EINTR {}
            if watched.revents & Int16(POLLERR | POLLHUP) != 0 { gone() }
        }
    }

    /// One line on standard error, with anything a camera sent made harmless for a terminal.
    private static func complain(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.safe(text) + "\n").utf8))
    }
}

extension RelayCommand: CameraTargetHelp {
    static var urlHelp: String { tr("bambu-jpeg://IP?code=CODE (Bambu P1/A1, port 6000) or http(s)://… (MJPEG or JPEG snapshot).") }
    static var printerHelp: String { tr("Relay this saved printer's camera (its name, number or id), its access code taken from the keyring.") }
}
