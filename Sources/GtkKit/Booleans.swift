import CGtk

/// GLib's gboolean is a C int. These two spellings are the only conversions between it and Bool, so
/// call sites say what they mean instead of `flag ? 1 : 0` and `value != 0`.
public extension Bool {
    /// This value as a gboolean: TRUE (1) or FALSE (0).
    var gboolean: CGtk.gboolean { self ? 1 : 0 }

    /// A gboolean GLib handed back; any non-zero value is TRUE.
    init(gboolean value: CGtk.gboolean) {
        self = value != 0
    }
}
