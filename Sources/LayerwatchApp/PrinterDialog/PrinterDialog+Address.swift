import PrinterKit

/// The printer dialog's address and port: a URL or `host:port` pasted into the address is split
/// (`TypedAddress`) when the field is left or the form is checked, its port going to the port field
/// where the choice has one (a Bambu or Creality printer's ports are fixed: no field, the port is
/// dropped); the port field shows the choice's usual port as its value, as GNOME's account forms
/// do, so it is seen without focusing the field.
extension PrinterDialog {
    /// Splits a pasted URL or `host:port` in the address field into the address and the port.
    func splitAddress() {
        guard let typed = TypedAddress(splitting: host.text) else { return }
        host.text = typed.host
        if let port = typed.port, choice.shows(.apiPort) { apiPort.text = port }
    }

    /// Puts the choice's usual port in the port field while it is empty or holds the usual port of
    /// the choice before (a port the user typed stays).
    func showUsualPort(replacing previous: String?) -> String? {
        let usual = choice.fields[.apiPort]?.placeholder
        if apiPort.text.isEmpty || apiPort.text == previous { apiPort.text = usual ?? "" }
        return usual
    }
}
