/// The geometry behind AdaptiveLayout's choice, kept free of GTK: which arrangement shows the video
/// larger, and how much larger it must be before switching is worth it.
extension AdaptiveLayout.Arrangement {
    /// How much more video area the other arrangement must give before the layout switches to it.
    /// Without this margin a window near the crossover would flap on every pixel of resize.
    static let switchingMargin = 1.08

    /// The arrangement for a `width`×`height` area while `self` is applied: `self`, unless the other
    /// one gives the video more than `switchingMargin` times its area.
    func preferred(width: Double, height: Double, barThickness: Double, contentAspectRatio: Double) -> Self {
        let other: Self = self == .below ? .beside : .below
        let current = videoArea(width: width, height: height, barThickness: barThickness,
                                contentAspectRatio: contentAspectRatio)
        let alternative = other.videoArea(width: width, height: height, barThickness: barThickness,
                                          contentAspectRatio: contentAspectRatio)
        return alternative > current * Self.switchingMargin ? other : self
    }

    /// The area of the video, fitted whole at its aspect ratio, in what this arrangement leaves of
    /// a `width`×`height` area next to a bar `barThickness` thick.
    func videoArea(width: Double, height: Double, barThickness: Double, contentAspectRatio: Double) -> Double {
        let space = self == .below ? (width: width, height: height - barThickness)
                                   : (width: width - barThickness, height: height)
        guard space.width > 0, space.height > 0 else { return 0 }
        let fittedWidth = min(space.width, space.height * contentAspectRatio)
        return fittedWidth * fittedWidth / contentAspectRatio
    }
}
