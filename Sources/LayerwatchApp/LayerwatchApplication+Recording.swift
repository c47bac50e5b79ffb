import CGtk
import Foundation
import GtkKit
import StreamKit

/// Recording the selected printer's camera into the Videos folder, on its one connection.
extension LayerwatchApplication {
    /// Starts or stops recording the selected tab's camera (the Record feature).
    func setRecording(_ on: Bool) {
        guard let window, let page = window.tabs.selected else { return }
        if on {
            startRecording(page, into: window.recordingFolder)
        } else {
            page.session.stopRecording()
        }
        page.surface.showRecording()
        window.refreshFeatures()
    }

    /// Records `page`'s camera into a new file in `folder`, named after the printer and the time;
    /// says where when it ends, or why it stopped.
    private func startRecording(_ page: PrinterPage, into folder: URL) {
        do throws(ExclusiveFile.Failure) {
            try ExclusiveFile.makeFolder(folder)
        } catch {
            window?.toast(RecordingFailure.cannotCreate(path: error.path, reason: error.reason).description)
            return
        }
        let url = folder.appendingPathComponent(SavedFiles.name(printer: page.camera.fullName, at: Date(), extension: "mkv"))
        let recording = page.session.startRecording(to: url)  // taken, the name gets a " (2)"
        recordings.append(recording)
        recording.whenFinished { [weak self, weak page] status in
            MainLoopExecutor.main.runOnMainActor { [weak self, weak page] in
                self?.recordingFinished(recording, status: status, page: page)
            }
        }
    }

    /// Says where a recording went, or why it stopped, and shows that it no longer runs.
    private func recordingFinished(_ recording: StreamRecording, status: StreamRecording.Status, page: PrinterPage?) {
        recordings.removeAll { $0 === recording }
        window?.toast(status.failureMessage ?? Self.savedText(status))
        page?.surface.showRecording()
        window?.refreshFeatures()
    }

    /// "Saved “X1C 2026-11-23 10.00.00.mkv” in Videos/Layerwatch" (and its parts).
    private static func savedText(_ status: StreamRecording.Status) -> String {
        guard let first = status.files.first else { return tr("Nothing was recorded: no picture came from the camera.") }
        return String(format: tr("Saved “%@” in Videos/Layerwatch"), first.lastPathComponent)
            + (status.files.count > 1 ? String(format: trPlural(" (and %d more part)", " (and %d more parts)", status.files.count - 1), status.files.count - 1) : "")
    }

    /// Closes every recording's file before the process ends.
    func finishRecordings() {
        for recording in recordings {
            recording.stop()
            recording.waitUntilFinished()
        }
    }
}
