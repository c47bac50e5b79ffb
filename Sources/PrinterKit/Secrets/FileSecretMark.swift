/// What `printers.json` keeps in place of a family's secret while the keyring holds it, declared by
/// the family (`PrinterFamily.fileSecretMark`): the keyring code knows families only through it.
enum FileSecretMark: Sendable {
    /// Nothing: an empty secret in the file means the keyring has it, and the keyring item is the
    /// bare secret while no camera URL holds a password (a Bambu access code, as formats 1 and 2 kept it).
    case nothing
    /// `***` (`Redactor.mask`) in the secret's place, and the keyring item a JSON object (an API key).
    case mask
}
