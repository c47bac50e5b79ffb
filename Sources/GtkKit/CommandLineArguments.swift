import CGtk

/// The arguments of a command line GApplication handed over, after the program's name.
public func commandLineArguments(_ commandLine: UnsafeMutablePointer<GApplicationCommandLine>) -> [String] {
    var count: Int32 = 0
    guard let argv = g_application_command_line_get_arguments(commandLine, &count) else { return [] }
    defer { g_strfreev(argv) }
    return (1..<max(1, Int(count))).compactMap { argv[$0].map { String(cString: $0) } }
}
