#!/usr/bin/env python3
"""Loopback MJPEG-over-HTTP test camera (mjpg-streamer / ustreamer / crowsnest look-alike).

Why it exists: Klipper, OctoPrint and Creality cameras serve
`multipart/x-mixed-replace` MJPEG at `/?action=stream` and a JPEG at
`/?action=snapshot`.  The Swift tests point the FFmpeg-based client at this
server to check decoding, many viewers, auth, 404 and garbage handling.
Stdlib only (plus the ffmpeg CLI once at startup to draw SMPTE bars).

Endpoints: /stream, /?action=stream, /webcam/stream, /webcam/?action=stream     MJPEG at --fps
           /snapshot, /?action=snapshot, /webcam/snapshot, /webcam/?action=snapshot  one JPEG
           /garbage        200 multipart header, then random bytes for ~10 s
           /private/stream, /private/snapshot  Basic auth when --user is given
           anything else   404, and every POST (a camera-streamer without WebRTC: its /webcam/webrtc)
stdout: {"event":"ready","port":N}
        {"event":"request","path":P,"clients":K,"total":T}   (every request; "method":"POST" for posts)
        {"event":"stream-closed","path":P,"clients":K}      (a stream response ended)
  clients = stream responses open now (this one included), total = requests ever.
"""
import argparse
import base64
import hmac
import os
import socket
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import add_common_args, announce_and_wait, emit, log, make_jpeg, stop_http_server  # noqa: E402

BOUNDARY = "frame"
GARBAGE_SECONDS = 10


class State:
    lock = threading.Lock()
    clients = 0
    total = 0


def route(raw_path):
    """Map a request path to (kind, private): kind in stream/snapshot/garbage/None."""
    url = urlsplit(raw_path)
    action = parse_qs(url.query).get("action", [""])[0]
    path = url.path
    private = path.startswith("/private/")
    if private:
        path = path[len("/private"):]
    if path in ("/", "/webcam/", "/webcam") and action in ("stream", "snapshot"):
        return action, private
    if path in ("/stream", "/snapshot", "/webcam/stream", "/webcam/snapshot"):
        return path.rsplit("/", 1)[1], private
    if path == "/garbage" and not private:
        return "garbage", False
    return None, False


class Handler(BaseHTTPRequestHandler):
    server_version = "LayerwatchTestMJPEG/1.0"

    def log_message(self, fmt, *args):
        log("mjpeg_server", fmt % args)

    def do_GET(self):
        kind, private = route(self.path)
        is_stream = kind in ("stream", "garbage")
        with State.lock:
            State.total += 1
            State.clients += is_stream
            emit(event="request", path=self.path, clients=State.clients, total=State.total)
        try:
            if kind is None:
                self.send_error(404, "Not Found")
            elif private and not self.authorized():
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="layerwatch-test"')
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif kind == "snapshot":
                self.send_jpeg()
            elif kind == "stream":
                self.send_stream()
            else:
                self.send_garbage()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass  # the client went away: normal for streams
        finally:
            if is_stream:
                with State.lock:
                    State.clients -= 1
                    emit(event="stream-closed", path=self.path, clients=State.clients)

    def do_POST(self):
        self.rfile.read(min(int(self.headers.get("Content-Length") or 0), 1 << 20))  # read, so closing sends no RST
        with State.lock:
            State.total += 1
            emit(event="request", method="POST", path=self.path, clients=State.clients, total=State.total)
        self.send_error(404, "Not Found")

    def authorized(self):
        cfg = self.server.cfg
        if cfg.user is None:
            return True
        expected = "Basic " + base64.b64encode(f"{cfg.user}:{cfg.password or ''}".encode()).decode()
        return hmac.compare_digest(self.headers.get("Authorization", "").encode(), expected.encode())

    def send_jpeg(self):
        jpeg = self.server.frames[0]
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(jpeg)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(jpeg)

    def start_multipart(self):
        self.send_response(200)
        self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY}")
        self.send_header("Cache-Control", "no-cache, no-store")
        self.send_header("Connection", "close")
        self.end_headers()

    def send_stream(self):
        self.start_multipart()
        frames, interval = self.server.frames, 1.0 / self.server.cfg.fps
        n, due = 0, time.monotonic()
        while not self.server.stopping:
            jpeg = frames[n % len(frames)]
            self.wfile.write(f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                             f"Content-Length: {len(jpeg)}\r\n\r\n".encode() + jpeg + b"\r\n")
            self.wfile.flush()
            n += 1
            due += interval
            time.sleep(max(0.0, due - time.monotonic()))

    def send_garbage(self):
        self.start_multipart()
        end = time.monotonic() + GARBAGE_SECONDS
        while time.monotonic() < end and not self.server.stopping:
            self.wfile.write(os.urandom(4096))
            self.wfile.flush()
            time.sleep(0.01)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--width", type=int, default=640)
    p.add_argument("--height", type=int, default=480)
    p.add_argument("--fps", type=float, default=10)
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--alternate", action="store_true",
                   help="alternate SMPTE bars with a second picture (colour-negated bars) every other frame")
    cfg = p.parse_args()

    with tempfile.TemporaryDirectory(prefix="layerwatch-mjpeg-") as tmp:
        frames = [make_jpeg(os.path.join(tmp, "bars.jpg"), cfg.width, cfg.height)]
        if cfg.alternate:
            frames.append(make_jpeg(os.path.join(tmp, "neg.jpg"), cfg.width, cfg.height, vf="negate"))

    class Server(ThreadingHTTPServer):  # allow_reuse_address (SO_REUSEADDR) is already on
        address_family = socket.AF_INET6 if ":" in cfg.bind else socket.AF_INET
        daemon_threads = True

    server = Server((cfg.bind, cfg.port), Handler)
    server.cfg, server.frames, server.stopping = cfg, frames, False
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    announce_and_wait("mjpeg_server", server.server_address[1], lambda: stop_http_server(server))
    return 0


if __name__ == "__main__":
    sys.exit(main())
