"""A Bambu printer's storage over implicit FTPS, for bambu_mqtt_printer.py (stdlib only).

Why it exists: Layerwatch sends a 3MF project to a Bambu printer over FTPS (PROTOCOLS.md §14):
TLS from the first byte on port 990, user `bblp` with the access code, passive data connections
that are TLS too and must RESUME the control connection's TLS session, as the printer's vsftpd
demands (`require_ssl_reuse=YES`, which ha-bambulab's ImplicitFTP_TLS works around).  This server
does the same with Python's ssl module and the broker's certificate: a data connection whose
handshake did not resume the session is refused as vsftpd refuses it (522), and nothing is stored.

Commands: USER PASS PBSZ PROT TYPE EPSV PASV STOR DELE SIZE NOOP QUIT (others 502).  Files are kept
in a directory of their own, by name at the root.
Events (stdout, through `emit`):
    {"event":"ftp-connected"}                   a TLS control connection was accepted
    {"event":"ftp-login","ok":B}                PASS checked against the access code
    {"event":"ftp-data-refused","reason":R}     a data connection without session reuse
    {"event":"ftp-stored","name":N,"bytes":K,"sha256":H,"reused":true}   STOR ended (the whole
                                                stream the client sent, complete or not)
    {"event":"ftp-deleted","name":N}            DELE removed a file
`open_delay` (seconds; {"cmd":"slow_uploads","seconds":S}) holds each STOR that long before it
takes the data connection and says 150.
`drop_after` (bytes; bambu_mqtt_printer's {"cmd":"drop_uploads","after":N}) breaks every data
connection off (a reset) once that much arrived, and answers 426 as vsftpd does.
"""
import hashlib
import os
import socket
import ssl
import threading
import time

from servercommon import emit, log

NAME = "bambu_ftps"
DATA_TIMEOUT = 10


class FtpsServer:
    """Implicit FTPS on (bind, port) with the given certificate; `files` maps name → path."""

    def __init__(self, bind, cert, key, user, code, directory):
        self.user, self.code, self.directory = user, code, directory
        self.bind = bind
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert, key)
        family = socket.AF_INET6 if ":" in bind else socket.AF_INET
        self.listener = socket.socket(family, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((bind, 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.files = {}
        self.drop_after = None  # bytes after which a data connection is broken off (426)
        self.open_delay = 0.0  # seconds STOR waits before it takes the data connection

    def start(self):
        threading.Thread(target=self.accept, daemon=True).start()

    def has(self, name):
        with self.lock:
            return name in self.files

    def listing(self):
        with self.lock:
            return {name: os.path.getsize(path) for name, path in self.files.items()}

    def accept(self):
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(sock,), daemon=True).start()

    def serve(self, raw):
        try:
            control = self.context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError) as error:
            log(NAME, f"control handshake failed: {error}")
            raw.close()
            return
        emit(event="ftp-connected")
        try:
            Session(self, control).run()
        except (ssl.SSLError, OSError, ValueError) as error:
            log(NAME, f"control connection ended: {error}")
        finally:
            control.close()


class Session:
    """One control connection."""

    def __init__(self, server, control):
        self.server, self.control = server, control
        self.reader = control.makefile("rb")
        self.user = None
        self.logged_in = False
        self.passive = None

    def reply(self, text):
        self.control.sendall((text + "\r\n").encode())

    def run(self):
        self.reply("220 (vsFTPd 3.0.3)")
        while True:
            line = self.reader.readline(4096)
            if not line:
                return
            verb, _, argument = line.decode("utf-8", "replace").rstrip("\r\n").partition(" ")
            verb = verb.upper()
            if verb == "QUIT":
                self.reply("221 Goodbye.")
                return
            handler = getattr(self, f"do_{verb}", None)
            if handler is None:
                self.reply("502 Command not implemented.")
            elif verb not in ("USER", "PASS") and not self.logged_in:
                self.reply("530 Please login with USER and PASS.")
            else:
                handler(argument)

    def do_USER(self, argument):
        self.user = argument
        self.reply("331 Please specify the password.")

    def do_PASS(self, argument):
        ok = self.user == self.server.user and argument == self.server.code
        emit(event="ftp-login", ok=ok)
        if ok:
            self.logged_in = True
            self.reply("230 Login successful.")
        else:
            self.reply("530 Login incorrect.")

    def do_PBSZ(self, _argument):
        self.reply("200 PBSZ set to 0.")

    def do_PROT(self, argument):
        self.reply("200 PROT now Private." if argument.upper() == "P" else "536 PROT not supported.")

    def do_TYPE(self, argument):
        self.reply("200 Switching to Binary mode." if argument.upper().startswith("I") else "504 Bad TYPE command.")

    def do_NOOP(self, _argument):
        self.reply("200 NOOP ok.")

    def open_passive(self):
        if self.passive:
            self.passive.close()
        family = socket.AF_INET6 if ":" in self.server.bind else socket.AF_INET
        self.passive = socket.socket(family, socket.SOCK_STREAM)
        self.passive.bind((self.server.bind, 0))
        self.passive.listen(1)
        self.passive.settimeout(DATA_TIMEOUT)
        return self.passive.getsockname()[1]

    def do_EPSV(self, _argument):
        port = self.open_passive()
        self.reply(f"229 Entering Extended Passive Mode (|||{port}|)")

    def do_PASV(self, _argument):
        port = self.open_passive()
        host = ",".join(self.server.bind.split(".")) if "." in self.server.bind else "127,0,0,1"
        self.reply(f"227 Entering Passive Mode ({host},{port // 256},{port % 256}).")

    def do_SIZE(self, argument):
        path = self.server.files.get(argument)
        self.reply(f"213 {os.path.getsize(path)}" if path else "550 Could not get file size.")

    def do_DELE(self, argument):
        with self.server.lock:
            path = self.server.files.pop(argument, None)
        if path:
            os.unlink(path)
            emit(event="ftp-deleted", name=argument)
            self.reply("250 Delete operation successful.")
        else:
            self.reply("550 Delete operation failed.")

    def do_STOR(self, argument):
        if not self.passive:
            self.reply("425 Use PORT or PASV first.")
            return
        listener, self.passive = self.passive, None
        time.sleep(self.server.open_delay)
        try:
            raw, _ = listener.accept()
        except OSError:
            self.reply("425 Failed to establish connection.")
            return
        finally:
            listener.close()
        self.reply("150 Ok to send data.")
        try:
            data = self.server.context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError) as error:
            raw.close()
            self.reply(f"522 SSL connection failed: {error}")
            return
        if not data.session_reused:
            # vsftpd's require_ssl_reuse: the data connection must resume the control one's session.
            emit(event="ftp-data-refused", reason="no session reuse")
            data.close()
            self.reply("522 SSL connection failed: session reuse required")
            return
        name = os.path.basename(argument)
        path = os.path.join(self.server.directory, name)
        digest, size, dropped = hashlib.sha256(), 0, False
        with open(path, "wb") as out:
            while True:
                try:
                    chunk = data.recv(256 * 1024)
                except (ssl.SSLError, OSError):
                    break
                if not chunk:
                    break
                out.write(chunk)
                digest.update(chunk)
                size += len(chunk)
                if self.server.drop_after is not None and size >= self.server.drop_after:
                    dropped = True
                    data.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    break
        data.close()
        with self.server.lock:
            self.server.files[name] = path
        emit(event="ftp-stored", name=name, bytes=size, sha256=digest.hexdigest(), reused=True)
        self.reply("426 Failure writing network stream." if dropped else "226 Transfer complete.")
