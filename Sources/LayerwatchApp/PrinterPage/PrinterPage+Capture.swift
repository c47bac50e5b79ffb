import Foundation
import GtkKit
import StreamKit

/// Saving what the page's camera shows, where the camera is: a snapshot into the Pictures folder,
/// a recording into the Videos folder on the camera's one connection, each said in `onMessage`.
extension PrinterPage {
    /// Saves the current picture (`takeSnapshot`) into the snapshots' folder and says where, or why not.
    func saveSnapshot() {
        let say = onMessage
        takeSnapshot(into: folders().snapshots) { result in
            switch result {
            case .success(let url):
                say(String(format: tr("Saved “%@” in %@"), url.lastPathComponent, SavedFiles.shownName(of: url.deletingLastPathComponent())), url)
            case .failure(let failure):
                say(failure.description, nil)
            }
        }
    }

    /// Whether one of the printer's cameras is being recorded (its tab shows the red dot).
    var isRecording: Bool { sessions.contains { $0.recording != nil } }

    /// Starts recording the camera into a new file in the recordings' folder (listed in
    /// `recordings` until it ends), or stops it.
    func setRecording(_ on: Bool) {
        guard let session, let recordings, surface != nil else { return }
        if on {
            startRecording(into: folders().recordings, listedIn: recordings)
        } else {
            session.stopRecording()
        }
        recordingChanged()
    }

    /// Shows that a recording started or ended: the picture's badge, Record's state, the tab.
    private func recordingChanged() {
        surface?.showRecording()
        refreshPictureActions()
        onRecordingChange()
    }

    /// Records into a new file in `folder`, named after the camera ("Voron — Nozzle") and the time; says where when
    /// it ends, or why it stopped.
    private func startRecording(into folder: URL, listedIn recordings: Recordings) {
        guard let camera, let session else { return }
        let say = onMessage
        do throws(ExclusiveFile.Failure) {
            try ExclusiveFile.makeFolder(folder)
        } catch {
            say(RecordingFailure.cannotCreate(path: error.path, reason: error.reason).description, nil)
            return
        }
        let url = folder.appendingPathComponent(SavedFiles.name(printer: camera.fullName, at: Date(), extension: "mkv"))
        let recording = session.startRecording(to: url)  // taken, the name gets a " (2)"
        let (printer, begun) = (printerID, Date())
        recordings.add(recording, of: session)
        recording.whenFinished { [weak self, weak recordings] status in
            MainLoopExecutor.main.runOnMainActor { [weak self, weak recordings] in
                recordings?.remove(recording)
                if !status.files.isEmpty { recordings?.onSaved(printer, status.files, begun) }
                // The file the message names: the first part saved, or the last written before a failure.
                say(status.failureMessage ?? Self.savedText(status), status.failureMessage == nil ? status.files.first : status.files.last)
                self?.recordingChanged()
            }
        }
    }

    /// "Saved “X1C 2026-11-23 10.00.00.mkv” in Videos/Layerwatch" (its folder; and its parts).
    private static func savedText(_ status: StreamRecording.Status) -> String {
        guard let first = status.files.first else { return tr("Nothing was recorded: no picture came from the camera.") }
        return String(format: tr("Saved “%@” in %@"), first.lastPathComponent, SavedFiles.shownName(of: first.deletingLastPathComponent()))
            + (status.files.count > 1 ? String(format: trPlural(" (and %d more part)", " (and %d more parts)", status.files.count - 1), status.files.count - 1) : "")
    }
}
