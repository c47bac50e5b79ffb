import CGtk

/// `text` escaped for the widgets that parse Pango markup and, in libadwaita 1.2, can't be told
/// not to (toast titles, tab tooltips): a printer's name or a camera's error is then shown as
/// written, never as markup (`<big>` is not enlarged, a lone `&` doesn't blank the text).
func markupEscaped(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
}
