"""Shared plumbing for the test servers (mjpeg, silent, bambu_jpeg; rtsp and session_manager use
the GLib stop helper; the printer-status peers use serve_commands and JsonApiHandler).

Why it exists: every loopback server the Swift tests start follows the same rules —
JSON events on stdout only, exit on SIGTERM/SIGINT or when stdin reaches EOF (so a
crashed test never leaves a server behind), listen with SO_REUSEADDR so a killed
server can be restarted on the same port at once.  Servers a test must steer while
they run (a printer whose state changes) read JSON commands from that same stdin.
Stdlib only; any python3 works.
"""
import copy
import hashlib
import hmac
import json
import os
import queue
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

_stdout_lock = threading.Lock()


def emit(**event):
    """Write one JSON event line to stdout and flush it."""
    line = json.dumps(event, separators=(",", ":"))
    with _stdout_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def log(name, msg):
    print(f"{name}: {msg}", file=sys.stderr, flush=True)


def add_common_args(parser, port=0):
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=port, help="0 = pick a free port")


def listen(bind, port, backlog=64):
    """A listening TCP socket with SO_REUSEADDR (restart on the same port right after a kill)."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((bind, port))
    sock.listen(backlog)
    return sock


def wait_for_stop(name):
    """Block until SIGTERM, SIGINT or EOF on stdin."""
    stop = threading.Event()

    def on_signal(signum, _frame):
        log(name, f"signal {signum}, exiting")
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    def watch_stdin():
        try:
            while os.read(sys.stdin.fileno(), 4096):
                pass
        except OSError:
            pass
        log(name, "stdin closed, exiting")
        stop.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    while not stop.wait(0.5):
        pass


_STOP = object()  # what the signal handler and the stdin reader hand serve_commands to end it


def serve_commands(name, handler):
    """Like wait_for_stop, but stdin carries commands: one JSON object per line, each handed to
    `handler(dict)` in order, on the calling (main) thread.  A line that is not a JSON object is
    logged to stderr and skipped.  An exception from the handler is logged and reported as
    {"event":"error","cmd":…,"message":…}, and the server goes on.  Returns on EOF, SIGTERM or
    SIGINT (a signal takes effect after the command running and those already read)."""
    inbox = queue.SimpleQueue()  # put() is reentrant: safe from a signal handler

    def on_signal(signum, _frame):
        log(name, f"signal {signum}, exiting")
        inbox.put(_STOP)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    def read_stdin():
        # os.read, not sys.stdin: a daemon thread blocked inside the buffered reader makes the
        # interpreter abort at exit ("could not acquire lock for <stdin>") after a signal.
        pending = b""
        try:
            while chunk := os.read(sys.stdin.fileno(), 65536):
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    inbox.put(line)
        except OSError:
            pass
        if pending:
            inbox.put(pending)
        log(name, "stdin closed, exiting")
        inbox.put(_STOP)

    threading.Thread(target=read_stdin, daemon=True).start()
    while True:
        try:
            line = inbox.get(timeout=0.5)
        except queue.Empty:
            continue
        if line is _STOP:
            return
        command = _parse_command(name, line)
        if command is not None:
            _run_command(name, handler, command)


def _parse_command(name, line):
    text = line.decode("utf-8", "replace").strip()
    if not text:
        return None
    try:
        command = json.loads(text)
    except ValueError as error:
        log(name, f"ignoring a stdin line that is not JSON ({error}): {text[:200]!r}")
        return None
    if not isinstance(command, dict):
        log(name, f"ignoring a stdin line that is not a JSON object: {text[:200]!r}")
        return None
    return command


def _run_command(name, handler, command):
    try:
        handler(command)
    except Exception as error:  # a bad command must not take the server down
        log(name, f"command {command.get('cmd')!r} failed:\n{traceback.format_exc()}")
        emit(event="error", cmd=command.get("cmd"), message=f"{type(error).__name__}: {error}")


def deep_merge(target, changes):
    """Merges the dict `changes` into `target` in place: nested dicts are merged key by key,
    anything else (lists included) is replaced by a copy.  Returns `target`."""
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            deep_merge(target[key], value)
        else:
            target[key] = copy.deepcopy(value)
    return target


def quit_glib_loop_on_stop(glib, loop, name):
    """For the GObject servers (rtsp, session manager): quit `loop` on SIGTERM, SIGINT or EOF on
    stdin.  `glib` is gi.repository.GLib, handed in so this module stays stdlib-only."""
    def quit_loop(*_):
        loop.quit()
        return glib.SOURCE_REMOVE

    for sig in (signal.SIGTERM, signal.SIGINT):
        glib.unix_signal_add(glib.PRIORITY_HIGH, sig, quit_loop)

    def on_stdin(fd, _cond):
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if data:
            return glib.SOURCE_CONTINUE
        log(name, "stdin closed, exiting")
        loop.quit()
        return glib.SOURCE_REMOVE

    glib.unix_fd_add_full(glib.PRIORITY_DEFAULT, sys.stdin.fileno(),
                          glib.IOCondition.IN | glib.IOCondition.HUP | glib.IOCondition.ERR, on_stdin)


def make_jpeg(path, width, height, source="smptebars", vf=None):
    """One JPEG of an FFmpeg lavfi test source (default: SMPTE colour bars)."""
    cmd = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", f"{source}=size={width}x{height}"]
    if vf:
        cmd += ["-vf", vf]
    cmd += ["-frames:v", "1", "-pix_fmt", "yuvj420p", "-q:v", "3", path]
    subprocess.run(cmd, check=True, stdin=subprocess.DEVNULL)
    with open(path, "rb") as f:
        data = f.read()
    assert data[:2] == b"\xff\xd8" and data[-2:] == b"\xff\xd9", "ffmpeg did not write a JPEG"
    return data


def thumbnail_png(width, height):
    """A slicer's job thumbnail as a PNG of `width` x `height` (RGB): an orange disc, the part, on a
    dark plate."""
    rows = []
    radius = min(width, height) * 0.35
    for y in range(height):
        row = bytearray(b"\x00")  # filter: none
        for x in range(width):
            inside = (x - width / 2) ** 2 + (y - height / 2) ** 2 <= radius ** 2
            row += bytes((0xF6, 0x8A, 0x1E) if inside else (0x3A, 0x3F, 0x47))
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


# Bytes served as a thumbnail that are no picture: a PNG signature and header, then nonsense.
GARBAGE_PICTURE = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x01\x00\x00\x00\x01\x00" + b"not a picture " * 64


def openssl(*args):
    """Runs the openssl CLI quietly; raises when it fails."""
    subprocess.run(["openssl", *args], check=True, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_certificate(directory, common_name, alt_name=None):
    """Self-signed certificate like a printer's (CN = serial number), with `alt_name` as its
    subjectAltName when given ("IP:127.0.0.1"). Returns (cert, key) paths."""
    key, crt = os.path.join(directory, "key.pem"), os.path.join(directory, "cert.pem")
    extension = ["-addext", f"subjectAltName={alt_name}"] if alt_name else []
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={common_name}",
            *extension, "-keyout", key, "-out", crt)
    return crt, key


def announce_and_wait(name, port, on_stop):
    """Prints the ready event for `port`, blocks until the test stops the server (see
    wait_for_stop), then runs `on_stop`."""
    emit(event="ready", port=port)
    wait_for_stop(name)
    on_stop()


def stop_http_server(server):
    """Ends an http.server started with serve_forever; its handlers watch `server.stopping`."""
    server.stopping = True
    server.shutdown()
    server.server_close()


def serve_http_commands(name, server, handle_command):
    """The life of a server from start_http_server that takes commands: announces its port
    ({"event":"ready"}), hands each stdin command to `handle_command(server, command)` until EOF or
    a signal (serve_commands), then stops it."""
    emit(event="ready", port=server.server_address[1])

    def handle(command):
        if command.get("cmd") == "upload_rate":  # every fake printer's uploads (Uploads)
            server.uploads.rate = command.get("bytes_per_second")
            emit(event="done", cmd="upload_rate")
        else:
            handle_command(server, command)
    serve_commands(name, handle)
    stop_http_server(server)


def serve_dbus_name(glib, gio, bus_name, path, interface_xml, on_call, on_property=None, name=None):
    """For the D-Bus peers (session manager, secret service): exports `interface_xml` at `path` on
    the session bus, owns `bus_name`, prints {"event":"ready"} once it is owned, and runs until the
    test stops it. gi's GLib and Gio are handed in so this module stays stdlib-only."""
    name = name or bus_name
    loop = glib.MainLoop()
    bus = gio.bus_get_sync(gio.BusType.SESSION, None)
    node = gio.DBusNodeInfo.new_for_xml(interface_xml)
    bus.register_object(path, node.interfaces[0], on_call, on_property, None)

    def on_lost(*_):
        log(name, f"cannot own {bus_name}")
        loop.quit()

    gio.bus_own_name_on_connection(bus, bus_name, gio.BusNameOwnerFlags.NONE, lambda *_: emit(event="ready"), on_lost)
    quit_glib_loop_on_stop(glib, loop, name)
    loop.run()


# ~~ JSON APIs that misbehave on request (moonraker_server, octoprint_server)

HUGE_BYTES = 11 * 1024 * 1024  # more than any sane status answer: above a 10 MB / 10 MiB cap


class FaultModes:
    """What a JSON API server does instead of answering normally, set by the stdin command
    {"cmd":"mode","mode":M} (optionally "path": only requests for that path, "bytes": size for
    huge).  normal | garbage (200, a truncated JSON body) | huge (200, a valid JSON body of
    `bytes`, Content-Length) | huge_chunked (the same, chunked, no Content-Length) | unframed
    (the normal answer without Content-Length or chunks, ended by closing the connection) |
    bad_headers (a status line, then a line that is no header field) | stall (read the request,
    never answer, keep the socket open) | close (close without answering) | 500."""
    NAMES = ("normal", "garbage", "huge", "huge_chunked", "unframed", "bad_headers", "stall", "close", "500")

    def __init__(self):
        self._lock = threading.Lock()
        self._default = ("normal", HUGE_BYTES)
        self._by_path = {}

    def apply(self, command):
        """Handles a `mode` command; returns the fields for its done event."""
        mode, path = str(command.get("mode")), command.get("path")
        if mode not in self.NAMES:
            raise ValueError(f"unknown mode {mode!r}; one of {', '.join(self.NAMES)}")
        setting = (mode, int(command.get("bytes", HUGE_BYTES)))
        with self._lock:
            if path is not None:
                self._by_path[path] = setting
            else:
                self._default = setting
                self._by_path.clear()  # a mode without a path applies to every path
        return {"mode": mode, "path": path}

    def for_path(self, path):
        with self._lock:
            return self._by_path.get(path, self._default)


def huge_json(body, size):
    """`body` (a dict) with a "pad" string added so that its JSON is exactly `size` bytes (or as
    small as it gets)."""
    padded = dict(body, pad="")
    missing = size - len(json.dumps(padded).encode())
    padded["pad"] = "x" * max(0, missing)
    return json.dumps(padded).encode()


class JsonApiHandler(BaseHTTPRequestHandler):
    """HTTP/1.1 (keep-alive, Content-Length) JSON API with the FaultModes above.  A subclass sets
    `name` and `garbage` and implements authorized(), unauthorized(), error_body(status) and
    answer(path, query) -> (status, body), and answer_post(path, body) -> (status, body or None
    for no content) for commands.  Every request prints {"event":"request","method":M,"path":P,
    "authorized":B[,"body":JSON]} before it is answered.
    Order: stall and close act first; then a request that is not authorized gets
    unauthorized(); then 500, garbage, huge and huge_chunked replace the normal answer."""
    protocol_version = "HTTP/1.1"
    server_version = "TornadoServer/6.4.1"  # Moonraker and OctoPrint both run on Tornado
    name = "json_api"
    garbage = b'{"result": {nonsense'

    def version_string(self):
        return self.server_version

    def log_message(self, fmt, *args):
        log(self.name, fmt % args)

    def do_GET(self):
        authorized = self.authorized()
        emit(event="request", method="GET", path=self.path, authorized=authorized)
        url = urlsplit(self.path)
        mode, size = self.server.faults.for_path(url.path)
        try:
            self.respond(mode, size, authorized, url)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    MAX_POST = 64 * 1024

    def upload_field(self, _path):
        """For an upload endpoint (a POST of a file, multipart): the part the file is in; None for
        every other path."""
        return None

    def uploaded(self, _path, _fields, _name, _record):
        """The answer (status, body) to an upload received whole."""
        return 201, {}

    def receive_upload(self, path, field, name=None):
        """Receives a file (`Uploads.receive`) behind the usual authorization, prints
        {"event":"upload","name":N,"fields":{…},"size":S,"sha256":H,"complete":B} and answers with
        uploaded(); an upload that broke off gets no answer."""
        authorized = self.authorized()
        emit(event="request", method=self.command, path=self.path, authorized=authorized)
        if not authorized:
            self.close_connection = True
            self.send_json(*self.unauthorized())
            return
        length = int(self.headers.get("Content-Length") or 0)
        try:
            fields, name, record = self.server.uploads.receive(self.rfile, length, self.headers.get("Content-Type"),
                                                               field, name)
        except ValueError as error:
            self.close_connection = True
            self.send_json(400, {"error": str(error)})
            return
        with self.server.uploads.lock:
            record = dict(record)
        emit(event="upload", name=name, fields=fields, **record)
        if not record["complete"]:
            self.close_connection = True
            return
        try:
            self.send_json(*self.uploaded(path, fields, name, record))
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def do_POST(self):
        field = self.upload_field(urlsplit(self.path).path)
        if field is not None:
            self.receive_upload(urlsplit(self.path).path, field)
            return
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(min(length, self.MAX_POST)) if length > 0 else b""
        try:
            self.body = json.loads(raw) if raw else None
        except ValueError:
            self.body = raw.decode("utf-8", "replace")
        authorized = self.authorized()
        emit(event="request", method="POST", path=self.path, authorized=authorized, body=self.body)
        url = urlsplit(self.path)
        mode, size = self.server.faults.for_path(url.path)
        try:
            self.respond(mode, size, authorized, url)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def answer_post(self, _path, _body):
        return 405, self.error_body(405)

    def reply(self, url):
        """(status, body) for this request: answer() for a GET, answer_post() for a POST."""
        if self.command == "POST":
            return self.answer_post(url.path, self.body)
        return self.answer(url.path, url.query)

    def respond(self, mode, size, authorized, url):
        if mode == "stall":
            self.stall()
        elif mode == "close":
            self.close_connection = True  # nothing written: the client reads EOF
        elif not authorized:
            self.send_json(*self.unauthorized())
        elif mode == "500":
            self.send_json(500, self.error_body(500))
        elif mode == "garbage":
            self.send_body(200, self.garbage)
        elif mode in ("huge", "huge_chunked"):
            _status, body = self.reply(url)
            self.send_body(200, huge_json(body, size), chunked=mode == "huge_chunked")
        elif mode == "unframed":
            status, body = self.reply(url)
            self.close_connection = True
            self.wfile.write(b"HTTP/1.1 %d OK\r\nContent-Type: application/json\r\n\r\n%s" % (status, json.dumps(body).encode()))
        elif mode == "bad_headers":
            self.close_connection = True
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{\"result\": not a header\r\n\r\n{}")
        else:
            self.send_json(*self.reply(url))

    def header_matches(self, header, expected):
        """Constant-time check of a request header (absent → False)."""
        return hmac.compare_digest(self.headers.get(header, "").encode(), expected.encode())

    def stall(self):
        while not self.server.stopping:
            time.sleep(0.1)
        self.close_connection = True

    def send_json(self, status, body):
        """`body` as JSON; None for no content (a 204)."""
        if body is None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_body(status, json.dumps(body).encode())

    def send_picture(self, data):
        """A file the API serves as it is (a thumbnail), 200 with Content-Length."""
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_body(self, status, data, chunked=False):
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Cache-Control", "no-cache")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not chunked:
            self.wfile.write(data)
            return
        for start in range(0, len(data), 65536):
            chunk = data[start:start + 65536]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        self.wfile.write(b"0\r\n\r\n")


def start_http_server(name, cfg, handler_class):
    """A ThreadingHTTPServer on cfg.bind:cfg.port serving in a daemon thread, with the
    `stopping` flag (see stop_http_server) and `faults` (FaultModes).  Exits with status 1 and
    "cannot listen…" on stderr when the port is taken."""
    class Server(ThreadingHTTPServer):  # allow_reuse_address (SO_REUSEADDR) is already on
        address_family = socket.AF_INET6 if ":" in cfg.bind else socket.AF_INET
        daemon_threads = True

    try:
        server = Server((cfg.bind, cfg.port), handler_class)
    except OSError as error:
        log(name, f"cannot listen on {cfg.bind}:{cfg.port}: {error.strerror or error}")
        sys.exit(1)
    server.cfg, server.stopping, server.faults, server.uploads = cfg, False, FaultModes(), Uploads()
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    return server


class Uploads:
    """Files a fake printer received by upload, as a printer stores them: name → {"size",
    "sha256", "complete"[, "seconds" from the body's first byte to its last]}, kept (their hash, never their bytes) even when the upload broke off, as
    a printer writing straight to its storage keeps a partial file until it is deleted.  `rate`
    (bytes a second, None: as fast as they come, set by the stdin command {"cmd":"upload_rate",
    "bytes_per_second":N}) slows the reading so a test can cancel an upload half-way."""
    CHUNK = 256 * 1024

    def __init__(self):
        self.lock = threading.Lock()
        self.files = {}
        self.rate = None

    def delete(self, name):
        with self.lock:
            return self.files.pop(name, None) is not None

    def receive(self, rfile, length, content_type, field, name=None, stored_as=None):
        """Reads a body of `length` bytes: multipart/form-data with the file in part `field` (its
        text fields before it), or with `field` None the raw file called `name`, stored as
        `stored_as` when given (a printer that names it by its URL), else by its name.  Returns
        (fields, name, record); record["complete"] is False when the body ended early."""
        began = time.monotonic()
        fields, start, head = {}, 0, b""
        if field is not None:
            fields, name, head, start = self._fields(rfile, length, content_type, field)
        trailer = len(_multipart_trailer(content_type)) if field is not None else 0
        size = length - start - trailer
        digest, received = hashlib.sha256(), 0
        record = {"size": 0, "sha256": "", "complete": False}
        with self.lock:
            self.files[stored_as or name] = record
        pending = head[:size]
        while True:
            if pending:
                digest.update(pending)
                received += len(pending)
                with self.lock:
                    record.update(size=received, sha256=digest.hexdigest())
                if self.rate:
                    time.sleep(len(pending) / self.rate)
            if received >= size:
                break
            try:
                pending = rfile.read(min(self.CHUNK, size - received))
            except (ConnectionResetError, OSError):
                pending = b""
            if not pending:
                return fields, name, record
        rest = head[size:]
        if trailer:
            rest += rfile.read(trailer - len(rest)) if len(rest) < trailer else b""
            if rest != _multipart_trailer(content_type):
                return fields, name, record
        with self.lock:
            record.update(complete=True, seconds=round(time.monotonic() - began, 4))
        return fields, name, record

    @staticmethod
    def _fields(rfile, length, content_type, field):
        """The text parts before the file part `field`: (fields, file name, the file's first bytes
        read with them, where in the body the file begins)."""
        boundary = b"--" + _boundary(content_type)
        data, offset, read, fields = b"", 0, 0, {}  # data: what is not parsed yet, from body offset `offset`
        while True:
            end = data.find(b"\r\n\r\n")
            is_file = end >= 0 and b'filename="' in data[:end]
            close = data.find(b"\r\n" + boundary, end) if end >= 0 else -1
            if end < 0 or (not is_file and close < 0):
                more = rfile.read(min(64 * 1024, length - read))
                if not more:
                    raise ValueError("the multipart body ended before its file part")
                data, read = data + more, read + len(more)
                continue
            part = dict(re.findall(r'(filename|name)="([^"]*)"', data[:end].decode("utf-8", "replace")))
            if is_file:
                if part.get("name") != field:
                    raise ValueError(f"the file is in part {part.get('name')!r}, not {field!r}")
                return fields, unquote(part["filename"]), data[end + 4:], offset + end + 4
            fields[part.get("name", "")] = data[end + 4:close].decode("utf-8", "replace")
            offset, data = offset + close + 2, data[close + 2:]


def _boundary(content_type):
    match = re.search(r"boundary=\"?([^\";]+)", content_type or "")
    if not match:
        raise ValueError("no multipart boundary")
    return match.group(1).encode()


def _multipart_trailer(content_type):
    return b"\r\n--" + _boundary(content_type) + b"--\r\n"
