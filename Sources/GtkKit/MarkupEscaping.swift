import CGtk

/// `text` escaped for the widgets that parse Pango markup and, in libadwaita 1.2, can't be told
/// not to (toast titles, tab tooltips): a printer's name or a camera's error is then shown as
/// written, never as markup (`<big>` is not enlarged, a lone `&` doesn't blank the text).
public func markupEscaped(_ text: String) -> String {
    String(takingGLibString: g_markup_escape_text(text, -1)) ?? ""
}
