/// The byte order of converted frames' pixels (4 bytes each, alpha 255, so premultiplied or not is
/// the same). Views ask for the order their renderer takes as it is: BGRA is cairo's ARGB32 and
/// what desktop GL uploads; OpenGL ES uploads only RGBA, and GTK 4.8 converts anything else pixel by
/// pixel first.
public enum PixelOrder: Sendable {
    case bgra, rgba
}
