#!/usr/bin/env python3
"""Loopback HTTP "camera" that answers with what a hostile or broken one might send.

Why it exists: the hardening tests check that an HTTP camera can neither make Layerwatch buffer
gigabytes, nor steer it to another host or protocol (an HLS playlist, an SDP body), nor hide
an undecodable picture behind a misleading error; and that https:// cameras are verified.
Stdlib only, plus the ffmpeg CLI (one JPEG) and, with --tls, the openssl CLI at startup.

Paths (one server serves every case; HTTP/1.0, the connection closes after each response):
  /stream              a normal MJPEG stream (multipart/x-mixed-replace; boundary=frame) at --fps
  /huge-part           one good part, then a part announcing Content-Length 2147483000 followed by
                       data as fast as the client reads it
  /huge-length         one good part, then a part announcing Content-Length 2**40, then data
  /endless-part        one good part, then a part without Content-Length whose boundary never comes
  /endless-snapshot    image/jpeg without Content-Length: FF D8, then data without end
  /hls                 an HLS playlist whose segment is http://127.0.0.1:--other-port/segment.ts
  /sdp                 an SDP body asking for RTP on UDP port --udp-port
  /giant-snapshot      image/jpeg: a JPEG whose frame header says 60000x60000
  /giant-stream        MJPEG stream of that JPEG at --fps
  /bad-jpeg-stream     MJPEG stream of parts FF D8, random bytes without FF, FF D9 at --fps
  /empty-parts         MJPEG stream at --fps whose good parts (with and without Content-Length) have
                       empty ones between them: Content-Length: 0, no Content-Length and only the
                       line break before the boundary, and the boundary right after the headers
  /post-only           405 Method Not Allowed (Allow: OPTIONS, POST): what a WebRTC (WHEP) endpoint
                       answers a GET with
  /gone                410 Gone: an HTTP error FFmpeg has no name of its own for
  anything else        404
--tls self-signed|ca-signed|wrong-name serves HTTPS: a self-signed certificate for 127.0.0.1, one
signed by a test CA for 127.0.0.1, or one signed by that CA for camera.invalid; --ca-out PATH
writes the test CA's certificate (PEM) there for the client to trust.
stdout: {"event":"ready","port":N}
        {"event":"request","path":P,"total":T}
        {"event":"sent","path":P,"bytes":N}   (a response ended after N body bytes)
"""
import argparse
import os
import shutil
import socket
import ssl
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import add_common_args, announce_and_wait, emit, log, make_certificate, make_jpeg, openssl, stop_http_server  # noqa: E402

BOUNDARY = "frame"
MISBEHAVE_SECONDS = 20
BLOCK = os.urandom(1 << 20)


class State:
    lock = threading.Lock()
    total = 0


def giant(jpeg, width=60000, height=60000):
    """`jpeg` with its baseline frame header (SOF0) claiming width x height."""
    i = 2
    while i < len(jpeg):
        marker, length = jpeg[i + 1], int.from_bytes(jpeg[i + 2:i + 4], "big")
        if marker == 0xC0:
            return (jpeg[:i + 5] + height.to_bytes(2, "big") + width.to_bytes(2, "big") + jpeg[i + 9:])
        i += 2 + length
    raise ValueError("no SOF0 in the JPEG")


class Handler(BaseHTTPRequestHandler):
    server_version = "LayerwatchHostileHTTP/1.0"

    def log_message(self, fmt, *args):
        log("hostile_http_server", fmt % args)

    def do_GET(self):
        with State.lock:
            State.total += 1
            emit(event="request", path=self.path, total=State.total)
        self.sent = 0
        routes = {
            "/stream": lambda: self.stream(lambda n: self.server.jpeg),
            "/huge-part": lambda: self.huge_part(2147483000),
            "/huge-length": lambda: self.huge_part(2 ** 40),
            "/endless-part": lambda: self.huge_part(None),
            "/endless-snapshot": self.endless_snapshot,
            "/hls": self.hls,
            "/sdp": self.sdp,
            "/giant-snapshot": lambda: self.body("image/jpeg", giant(self.server.jpeg)),
            "/giant-stream": lambda: self.stream(lambda n: giant(self.server.jpeg)),
            # No 0xFF in the garbage: random bytes would now and then hold a frame header (FF C0)
            # declaring a giant picture, which is refused as too large rather than as damaged.
            "/bad-jpeg-stream": lambda: self.stream(lambda n: b"\xff\xd8" + os.urandom(6000).replace(b"\xff", b"\x00") + b"\xff\xd9"),
            "/empty-parts": self.empty_parts,
            "/post-only": self.post_only,
            "/gone": lambda: self.send_error(410, "Gone"),
        }
        try:
            if self.path in routes:
                routes[self.path]()
            else:
                self.send_error(404, "Not Found")
        except (BrokenPipeError, ConnectionResetError, TimeoutError, ssl.SSLError, OSError):
            pass  # the client went away
        emit(event="sent", path=self.path, bytes=self.sent)

    def post_only(self):
        self.send_response(405, "Method Not Allowed")
        self.send_header("Allow", "OPTIONS, POST")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def write(self, data):
        self.wfile.write(data)
        self.wfile.flush()
        self.sent += len(data)

    def body(self, content_type, data):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.write(data)

    def start_multipart(self):
        self.send_response(200)
        self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY}")
        self.send_header("Connection", "close")
        self.end_headers()

    @staticmethod
    def part_bytes(jpeg):
        return (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
                + jpeg + b"\r\n")

    def part(self, jpeg):
        self.write(self.part_bytes(jpeg))

    def stream(self, picture):
        self.stream_parts(lambda n: self.part_bytes(picture(n)))

    def stream_parts(self, part):
        """A multipart response of part(0), part(1)… at --fps."""
        self.start_multipart()
        interval, n, due = 1.0 / self.server.cfg.fps, 0, time.monotonic()
        while not self.server.stopping:
            self.write(part(n))
            n += 1
            due += interval
            time.sleep(max(0.0, due - time.monotonic()))

    def empty_parts(self):
        head = f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n".encode()
        jpeg = self.server.jpeg
        parts = [self.part_bytes(jpeg),
                 head + b"Content-Length: 0\r\n\r\n\r\n",
                 head + b"\r\n" + jpeg + b"\r\n",
                 head + b"\r\n\r\n",
                 head + b"\r\n"]
        self.stream_parts(lambda n: parts[n % len(parts)])

    def flood(self):
        end = time.monotonic() + MISBEHAVE_SECONDS
        while time.monotonic() < end and not self.server.stopping:
            self.write(BLOCK)

    def huge_part(self, announced):
        self.start_multipart()
        self.part(self.server.jpeg)
        length = "" if announced is None else f"Content-Length: {announced}\r\n"
        self.write(f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n{length}\r\n".encode() + b"\xff\xd8")
        self.flood()

    def endless_snapshot(self):
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.end_headers()
        self.write(b"\xff\xd8")
        self.flood()

    def hls(self):
        other = self.server.cfg.other_port
        playlist = ("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
                    f"#EXTINF:2.0,\nhttp://127.0.0.1:{other}/segment.ts\n#EXTINF:2.0,\n"
                    f"http://127.0.0.1:{other}/segment2.ts\n")
        self.body("application/vnd.apple.mpegurl", playlist.encode())

    def sdp(self):
        port = self.server.cfg.udp_port
        sdp = ("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=camera\r\nc=IN IP4 0.0.0.0\r\nt=0 0\r\n"
               f"m=video {port} RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n")
        self.body("application/sdp", sdp.encode())


def make_tls(directory, mode, ca_out):
    """A server certificate for `mode`; returns (cert, key) paths and writes the CA to ca_out."""
    key, csr, crt = (os.path.join(directory, n) for n in ("key.pem", "req.pem", "cert.pem"))
    if mode == "self-signed":
        return make_certificate(directory, "127.0.0.1", alt_name="IP:127.0.0.1")
    ca_key, ca_crt, ext = (os.path.join(directory, n) for n in ("ca-key.pem", "ca.pem", "ext.cnf"))
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Layerwatch Test CA",
            "-keyout", ca_key, "-out", ca_crt)
    name = "IP:127.0.0.1" if mode == "ca-signed" else "DNS:camera.invalid"
    with open(ext, "w") as f:
        f.write(f"subjectAltName={name}\nbasicConstraints=CA:FALSE\n")
    cn = "127.0.0.1" if mode == "ca-signed" else "camera.invalid"
    openssl("req", "-new", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={cn}", "-keyout", key, "-out", csr)
    openssl("x509", "-req", "-in", csr, "-CA", ca_crt, "-CAkey", ca_key, "-CAcreateserial", "-days", "2",
            "-extfile", ext, "-out", crt)
    if ca_out:
        shutil.copyfile(ca_crt, ca_out)
    return crt, key


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--fps", type=float, default=10)
    p.add_argument("--other-port", type=int, default=9, help="where /hls points its segments")
    p.add_argument("--udp-port", type=int, default=9, help="the UDP port /sdp asks for")
    p.add_argument("--tls", choices=["self-signed", "ca-signed", "wrong-name"])
    p.add_argument("--ca-out", help="with --tls ca-signed or wrong-name: write the test CA here")
    cfg = p.parse_args()

    with tempfile.TemporaryDirectory(prefix="layerwatch-hostile-http-") as tmp:
        jpeg = make_jpeg(os.path.join(tmp, "bars.jpg"), 320, 240)
        context = None
        if cfg.tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*make_tls(tmp, cfg.tls, cfg.ca_out))

    class Server(ThreadingHTTPServer):
        address_family = socket.AF_INET6 if ":" in cfg.bind else socket.AF_INET
        daemon_threads = True

        def get_request(self):
            conn, addr = super().get_request()
            if context is not None:
                conn = context.wrap_socket(conn, server_side=True, do_handshake_on_connect=False)
            return conn, addr

    server = Server((cfg.bind, cfg.port), Handler)
    server.cfg, server.jpeg, server.stopping = cfg, jpeg, False
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    announce_and_wait("hostile_http_server", server.server_address[1], lambda: stop_http_server(server))
    return 0


if __name__ == "__main__":
    sys.exit(main())
