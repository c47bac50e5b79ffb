import ArgumentParser
import Foundation
import Glibc
import StreamKit

/// Reads an access code or password from standard input instead of the command line, where
/// /proc/PID/cmdline would show it to every local user: one line, typed with echo off when standard
/// input is a terminal.
enum SecretInput {
    static func readLine(prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return Swift.readLine(strippingNewline: true) }
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let canHideEcho = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHideEcho {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if canHideEcho { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return Swift.readLine(strippingNewline: true)
    }
}

/// `--code-from-stdin`, declared once for every command that takes a URL with a secret (`probe`,
/// `record`, `status`): the access code, password or API key comes on standard input instead.
struct CodeFromStdin: ParsableArguments {
    @Flag(name: .customLong("code-from-stdin"), help: ArgumentHelp(tr("Read the access code, password or API key from standard input (typed without echo at a terminal), so it stays off the command line.")))
    var isOn = false

    /// Refuses the flag without a URL to put the code in.
    func validate(url: String?) throws {
        if isOn && url == nil { throw ValidationError(tr("--code-from-stdin needs a URL.")) }
    }

    /// The code from standard input, when the flag is on.
    func read() throws -> String? {
        guard isOn else { return nil }
        guard let code = SecretInput.readLine(prompt: tr("Access code, password or API key: ")), !code.isEmpty else {
            throw ProbeTarget.Failure(description: tr("no access code came on standard input"))
        }
        return code
    }
}
