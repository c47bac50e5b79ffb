"""Shared plumbing for the test servers (mjpeg, silent, bambu_jpeg; rtsp and session_manager use
the GLib stop helper).

Why it exists: every loopback server the Swift tests start follows the same rules —
JSON events on stdout only, exit on SIGTERM/SIGINT or when stdin reaches EOF (so a
crashed test never leaves a server behind), listen with SO_REUSEADDR so a killed
server can be restarted on the same port at once.  Stdlib only; any python3 works.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import threading

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
