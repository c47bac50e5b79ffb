import Foundation
import StreamKit

/// How far a view is zoomed into the camera's picture and where it looks: a scale from 1 (the whole
/// picture, fitted) to 8, and the point of the upright picture at the middle of the view, in
/// fractions of its sides. Plain arithmetic: `ZoomControls` turns wheel, pinch, drag, double-click
/// and keys into these steps, and the view shows `visible`.
public struct PictureZoom: Equatable {
    static let maximum = 8.0
    /// One step of the `+` and `-` keys: every other step is a power of two (1, 1.4, 2, 2.8, 4 …).
    static let step = 2.0.squareRoot()
    public static let fitted = PictureZoom()

    private(set) var scale = 1.0
    private(set) var centerX = 0.5
    private(set) var centerY = 0.5

    var isFitted: Bool { scale == 1 }

    /// The part of the upright picture in view.
    var visible: PictureRegion {
        PictureRegion(x: centerX - 0.5 / scale, y: centerY - 0.5 / scale, width: 1 / scale, height: 1 / scale)
    }

    /// Zoomed by `factor`, keeping the picture's point under `point` (fractions of the view) where
    /// it is: the wheel and pinch zoom about the pointer or the fingers.
    func zoomed(by factor: Double, about point: (x: Double, y: Double) = (0.5, 0.5)) -> PictureZoom {
        guard factor.isFinite, factor > 0 else { return self }
        let anchorX = centerX + (point.x - 0.5) / scale, anchorY = centerY + (point.y - 0.5) / scale
        var zoom = self
        zoom.scale = min(max(scale * factor, 1), Self.maximum)
        if abs(zoom.scale - 1) < 1e-9 { return .fitted }
        zoom.centerX = anchorX - (point.x - 0.5) / zoom.scale
        zoom.centerY = anchorY - (point.y - 0.5) / zoom.scale
        return zoom.keptInside()
    }

    /// One key step in or out from the nearest step, about the middle of the view.
    func stepped(in zoomIn: Bool) -> PictureZoom {
        let steps = (log(scale) / log(Self.step)).rounded()
        let target = pow(Self.step, steps + (zoomIn ? 1 : -1))
        return zoomed(by: target / scale)
    }

    /// Moved as a drag by (`dx`, `dy`) fractions of the view moves the picture under the pointer.
    func panned(byX dx: Double, y dy: Double) -> PictureZoom {
        guard dx.isFinite, dy.isFinite else { return self }
        var zoom = self
        zoom.centerX -= dx / scale
        zoom.centerY -= dy / scale
        return zoom.keptInside()
    }

    /// The middle kept where the view stays inside the picture.
    private func keptInside() -> PictureZoom {
        var zoom = self
        let half = 0.5 / scale
        zoom.centerX = min(max(centerX, half), 1 - half)
        zoom.centerY = min(max(centerY, half), 1 - half)
        return zoom
    }

    /// "2×", "2.8×": the scale as the indicator shows it.
    var label: String {
        let rounded = (scale * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(format: "%.0f×", rounded) : String(format: "%.1f×", rounded)
    }
}
