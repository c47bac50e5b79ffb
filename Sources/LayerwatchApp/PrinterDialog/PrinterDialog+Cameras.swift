import CGtk
import GtkKit
import PrinterKit
import StreamKit

/// The printer dialog's cameras: the list of the printer's own (`PrinterCameraList`), the URL and
/// mounting rows of the selected one, and the cameras "Find Cameras" checked.
extension PrinterDialog {
    /// The printer's cameras, the selected one with the URL and mounting its fields show now (a URL
    /// changed by hand is no longer the one the host listed: its MJPEG fallback goes).
    var editedCameras: [PrinterCamera] {
        var edited = printerCameras
        guard let index = selectedCamera, edited.indices.contains(index) else { return edited }
        if let listed = edited[index].url {
            if listed != url.text { edited[index].mjpegFallback = nil }
            edited[index].url = url.text
        }
        edited[index].rotation = mounting.rotation
        edited[index].flipHorizontal = mounting.flipHorizontal
        edited[index].flipVertical = mounting.flipVertical
        return edited
    }

    /// Whether the camera URL field is part of the form: while a camera with a URL is selected
    /// (not a Bambu or Creality printer's own camera), never for go2rtc.
    var showsURL: Bool {
        !choice.isGo2RTC && selectedCamera.map { printerCameras.indices.contains($0) && printerCameras[$0].url != nil } ?? false
    }

    /// Shows the camera at `index` in the URL and mounting fields (what they showed is not kept).
    func showCamera(at index: Int?) {
        selectedCamera = index.flatMap { printerCameras.indices.contains($0) ? $0 : nil }
        if let camera = selectedCamera.map({ printerCameras[$0] }) {
            url.text = camera.url ?? ""
            mounting.show(rotation: camera.rotation, flipHorizontal: camera.flipHorizontal, flipVertical: camera.flipVertical)
        }
        showCameras()
    }

    /// Lists the printer's cameras and shows the fields of the selected one.
    private func showCameras() {
        let choice = choice
        cameraRows.show(printerCameras, kind: draft.kind, ownCamera: chosenVariant?.ownCamera, selected: selectedCamera)
        cameraRows.field.setShown(!choice.isGo2RTC)
        // One heading over the cameras: "Find Cameras" and its list, just above, carry it when shown.
        cameraRows.field.setTitle(choice.shows(.cameras) ? "" : PrinterCameraList.title)
        url.setShown(showsURL)
        mounting.field.setShown(!choice.isGo2RTC && selectedCamera != nil)
    }

    /// Lists the cameras with the selected one's URL as typed so far.
    func listTypedURL() {
        cameraRows.show(editedCameras, kind: draft.kind, ownCamera: chosenVariant?.ownCamera, selected: selectedCamera)
    }

    /// Shows "Use WebRTC Address" while the URL looks like a WebRTC (WHEP) address or a test found
    /// it answering as one (HTTP 405).
    func offerWebRTCAddress() {
        let fixed = showsURL ? WHEPAddress.fixed(url.text) : nil
        let suspected = WHEPAddress.looksLikeWHEP(url.text) || checkProblems[.url] == StreamFailure.webRTCAddress.userMessage
        gtk_widget_set_visible(useWebRTC, (fixed != nil && suspected).gboolean)
    }

    /// Puts `webrtc:` before the URL.
    func useWebRTCAddress() {
        guard let fixed = WHEPAddress.fixed(url.text) else { return }
        url.text = fixed
        focus(url)
    }

    /// Does what the camera list asked.
    func camerasEdited(_ request: PrinterCameraList.Request) {
        printerCameras = editedCameras
        switch request {
        case .select(let index):
            showCamera(at: index)
            return
        case .moveUp(let index) where index > 0:
            printerCameras.swapAt(index, index - 1)
            showCamera(at: index - 1)
        case .moveDown(let index) where index + 1 < printerCameras.count:
            printerCameras.swapAt(index, index + 1)
            showCamera(at: index + 1)
        case .remove(let index) where printerCameras.indices.contains(index):
            printerCameras.remove(at: index)
            showCamera(at: printerCameras.isEmpty ? nil : min(index, printerCameras.count - 1))
        case .add:
            printerCameras.append(PrinterCamera(url: ""))
            showCamera(at: printerCameras.count - 1)
        default:
            return
        }
        if case .add = request { focus(url) }
        checkProblems[.url] = nil
        rejections[.url] = nil
        revalidate()
    }

    /// The cameras a kind starts with or keeps: a Bambu or Creality printer's own camera first, no
    /// such camera on another kind, and an empty one to fill in for a camera by URL.
    func fitCamerasToChoice() {
        printerCameras = editedCameras
        let kind = choice.kind
        if kind.hasOwnCamera {
            if !printerCameras.contains(where: { $0.url == nil }) { printerCameras.insert(.own(), at: 0) }
        } else {
            printerCameras.removeAll { $0.url?.isEmpty ?? true }
            if printerCameras.isEmpty && !kind.canGoWithoutCamera { printerCameras = [PrinterCamera(url: "")] }
        }
        showCamera(at: printerCameras.isEmpty ? nil : 0)
    }

    /// A found camera checked is one of the printer's cameras, unchecked it is not (go2rtc's
    /// streams are saved on their own, see `draft`).
    func camerasToggled() {
        guard !choice.isGo2RTC else { return revalidate() }
        printerCameras = editedCameras
        let chosen = cameraList.chosen
        let unchecked = Set(cameraList.cameras.compactMap(\.url)).subtracting(chosen.compactMap(\.url))
        printerCameras.removeAll { camera in camera.url.map { unchecked.contains($0) || $0.isEmpty } ?? false }
        for found in chosen where !printerCameras.contains(where: { $0.url == found.url }) {
            printerCameras.append(PrinterCamera(found))
        }
        showCamera(at: printerCameras.isEmpty ? nil : 0)
        revalidate()
    }
}
