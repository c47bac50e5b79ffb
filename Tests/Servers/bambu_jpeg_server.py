#!/usr/bin/env python3
"""Loopback imitation of a Bambu P1/A1 camera: JPEG frames over TLS, TCP port 6000.

Why it exists: P1P/P1S/A1/A1 mini printers do not speak RTSP; they send JPEGs
framed by a 16-byte header over a TLS socket after an 80-byte auth packet
(PROTOCOLS.md section 2).  The Swift tests run their client against this
server, including the ugly cases: reads split at random places, a wrong access
code (server closes without a byte), an absurd size, garbage, a cut frame.
Stdlib ssl, plus the openssl CLI (self-signed cert, CN 01P00TESTSERIAL) and
the ffmpeg CLI (SMPTE bars JPEG) once at startup.

Protocol, all integers u32 little-endian:
  client -> server: 0x40, 0x3000, 0, 0, 32 bytes user "bblp" NUL-padded, 32 bytes access code NUL-padded
  server -> client: per frame 16-byte header (payload size, 0, 1, 0) + JPEG (FF D8 ... FF D9)
stdout: {"event":"ready","port":N}
        {"event":"client","total":T}           (TCP connection accepted)
        {"event":"auth","ok":true|false}       (auth packet read and checked)
        {"event":"client-closed","clients":K}  (connection finished, K still open)
"""
import argparse
import os
import random
import socket
import ssl
import struct
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import add_common_args, announce_and_wait, emit, listen, log, make_certificate, make_jpeg  # noqa: E402

SERIAL = "01P00TESTSERIAL"
AUTH = struct.Struct("<IIII32s32s")  # 80 bytes
HEADER = struct.Struct("<IIII")      # 16 bytes
OVERSIZE = 100 * 1024 * 1024
MISBEHAVE_SECONDS = 10


class Counters:
    lock = threading.Lock()
    total = 0
    clients = 0


def recv_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


class Connection:
    def __init__(self, sock, cfg, jpeg, stopping):
        self.sock, self.cfg, self.jpeg, self.stopping = sock, cfg, jpeg, stopping

    def send(self, data):
        """Send in random chunks of 1..--fragment bytes, each its own TLS record (TCP_NODELAY),
        with a few 1 ms pauses per call so a reader sees the data split at random places."""
        chunks, i = [], 0
        while i < len(data):
            n = random.randint(1, self.cfg.fragment)
            chunks.append(data[i:i + n])
            i += n
        pauses = set(random.sample(range(len(chunks)), min(8, len(chunks))))
        for k, chunk in enumerate(chunks):
            self.sock.sendall(chunk)
            if k in pauses:
                time.sleep(0.001)

    def frame(self, payload, announced=None):
        size = len(payload) if announced is None else announced
        self.send(HEADER.pack(size, 0, 1, 0) + payload)

    def wait_peer_close(self, seconds):
        """Hold the connection open, sending nothing, until the client closes it or time runs out."""
        self.sock.settimeout(0.2)
        end = time.monotonic() + seconds
        while time.monotonic() < end and not self.stopping.is_set():
            try:
                if not self.sock.recv(4096):
                    return
            except (socket.timeout, ssl.SSLWantReadError):
                continue

    def run(self):
        self.sock.settimeout(30)
        self.sock.do_handshake()
        packet = recv_exact(self.sock, AUTH.size)
        ok = False
        if packet is not None:
            size, kind, _flags, _zero, user, code = AUTH.unpack(packet)
            ok = (size == 0x40 and kind == 0x3000 and user.rstrip(b"\0") == self.cfg.user.encode()
                  and code.rstrip(b"\0") == self.cfg.password.encode())
        emit(event="auth", ok=ok)
        if not ok:
            return  # close at once, not a byte sent
        self.sock.settimeout(None)
        mode = self.cfg.mode
        good = self.cfg.frames if mode != "normal" else (self.cfg.frames or float("inf"))
        interval, due, sent = 1.0 / self.cfg.fps, time.monotonic(), 0
        while sent < good and not self.stopping.is_set():
            self.frame(self.jpeg)
            sent += 1
            due += interval
            time.sleep(max(0.0, due - time.monotonic()))
        if mode == "oversize":
            self.frame(self.jpeg[:4096], announced=OVERSIZE)
            self.wait_peer_close(MISBEHAVE_SECONDS)
        elif mode == "garbage":
            end = time.monotonic() + MISBEHAVE_SECONDS
            while time.monotonic() < end and not self.stopping.is_set():
                self.send(os.urandom(4096))
                time.sleep(0.01)
        elif mode == "bad-jpeg":
            while not self.stopping.is_set():
                self.frame(b"\xff\xd8" + os.urandom(len(self.jpeg)) + b"\xff\xd9")
                due += interval
                time.sleep(max(0.0, due - time.monotonic()))
        elif mode == "truncate":
            self.send(HEADER.pack(len(self.jpeg), 0, 1, 0) + self.jpeg[:len(self.jpeg) // 2])


def serve(listener, context, cfg, jpeg, stopping):
    while True:
        raw, _addr = listener.accept()
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with Counters.lock:
            Counters.total += 1
            Counters.clients += 1
            emit(event="client", total=Counters.total)
        threading.Thread(target=handle, args=(raw, context, cfg, jpeg, stopping), daemon=True).start()


def handle(raw, context, cfg, jpeg, stopping):
    try:
        sock = context.wrap_socket(raw, server_side=True, do_handshake_on_connect=False)
        try:
            Connection(sock, cfg, jpeg, stopping).run()
        finally:
            sock.close()  # plain close: no TLS close_notify, like a printer dropping the socket
    except (OSError, ssl.SSLError) as exc:
        log("bambu_jpeg_server", f"connection ended: {exc}")
    finally:
        raw.close()
        with Counters.lock:
            Counters.clients -= 1
            emit(event="client-closed", clients=Counters.clients)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--user", default="bblp")
    p.add_argument("--password", default="12345678", help="LAN access code")
    p.add_argument("--fps", type=float, default=1.0)
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=720)
    p.add_argument("--fragment", type=int, default=4096, help="send in random chunks of 1..N bytes")
    p.add_argument("--mode", choices=["normal", "oversize", "garbage", "truncate", "bad-jpeg"], default="normal")
    p.add_argument("--frames", type=int, default=0,
                   help="normal: close after N frames (0 = never); other modes: good frames sent before "
                        "misbehaving (default 0)")
    cfg = p.parse_args()
    if cfg.fps <= 0 or cfg.fragment < 1:
        p.error("--fps must be > 0 and --fragment >= 1")

    with tempfile.TemporaryDirectory(prefix="layerwatch-bambu-") as tmp:
        jpeg = make_jpeg(os.path.join(tmp, "bars.jpg"), cfg.width, cfg.height)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*make_certificate(tmp, SERIAL))

    stopping = threading.Event()
    listener = listen(cfg.bind, cfg.port)
    threading.Thread(target=serve, args=(listener, context, cfg, jpeg, stopping), daemon=True).start()
    announce_and_wait("bambu_jpeg_server", listener.getsockname()[1], stopping.set)
    return 0


if __name__ == "__main__":
    sys.exit(main())
