import CGtk

public extension String {
    /// Takes over a string GLib allocated for the caller (transfer full: `g_markup_escape_text`,
    /// `g_file_get_path`, `gtk_accelerator_get_label`): copies it, then frees GLib's. Nil for nil.
    init?(takingGLibString string: UnsafeMutablePointer<gchar>?) {
        guard let string else { return nil }
        defer { g_free(string) }
        self.init(cString: string)
    }
}
