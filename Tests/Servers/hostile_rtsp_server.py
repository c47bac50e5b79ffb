#!/usr/bin/env python3
"""Loopback RTSP(S) "camera" that redirects, loops, or announces a picture too large to decode.

Why it exists: FFmpeg's RTSP client follows 301/302 redirects by itself, keeps the credentials
for the new host and has no redirect limit; and an SPS can declare any picture size.  The
hardening tests point Layerwatch at this server to check that credentials never reach another
host, that a redirect loop stops at once, and that an oversized picture is named as such.
Stdlib only (ssl), plus the openssl CLI with --tls.

Modes (--mode):
  redirect       401 (Basic) until the request carries credentials, then 302 to --location
  redirect-loop  302 to a new path on this same server for every request (credentials as above)
  redirect-self  302 to the very URL that was asked for, every time
  huge-sps       a working session (H.264 over interleaved TCP) whose SPS, in the SDP and before
                 each IDR slice, declares --width x --height
  huge-describe  DESCRIBE is answered with Content-Length: 2147483000, then data as fast as the
                 client reads it (20 s at most)
  endless-frame  a working session that sends SPS and PPS, then one IDR slice in FU-A fragments
                 that never ends (no end fragment, no new timestamp), as fast as the client reads
stdout: {"event":"ready","port":N}
        {"event":"client","total":T}
        {"event":"request","method":M,"url":U,"authorized":true|false}
"""
import argparse
import base64
import os
import ssl
import struct
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import add_common_args, announce_and_wait, emit, listen, log, make_certificate  # noqa: E402


MISBEHAVE_SECONDS = 20


class Counters:
    lock = threading.Lock()
    total = 0
    loops = 0


class Bits:
    """An RBSP bit writer with Exp-Golomb codes."""

    def __init__(self):
        self.bits = []

    def u(self, n, value):
        self.bits += [(value >> (n - 1 - i)) & 1 for i in range(n)]

    def ue(self, value):
        value += 1
        n = value.bit_length()
        self.u(n - 1, 0)
        self.u(n, value)

    def nal(self, header):
        self.bits.append(1)
        while len(self.bits) % 8:
            self.bits.append(0)
        raw = bytes(int("".join(map(str, self.bits[i:i + 8])), 2) for i in range(0, len(self.bits), 8))
        out, zeros = bytearray([header]), 0
        for b in raw:  # emulation prevention
            if zeros >= 2 and b <= 3:
                out.append(3)
                zeros = 0
            out.append(b)
            zeros = zeros + 1 if b == 0 else 0
        return bytes(out)


def sps(width, height):
    b = Bits()
    b.u(8, 66)      # profile_idc: Baseline
    b.u(8, 0xC0)    # constraint flags
    b.u(8, 51)      # level_idc
    b.ue(0)         # seq_parameter_set_id
    b.ue(0)         # log2_max_frame_num_minus4
    b.ue(2)         # pic_order_cnt_type
    b.ue(1)         # max_num_ref_frames
    b.u(1, 0)       # gaps_in_frame_num_value_allowed_flag
    b.ue(width // 16 - 1)
    b.ue(height // 16 - 1)
    b.u(1, 1)       # frame_mbs_only_flag
    b.u(1, 1)       # direct_8x8_inference_flag
    b.u(1, 0)       # frame_cropping_flag
    b.u(1, 0)       # vui_parameters_present_flag
    return b.nal(0x67)


def pps():
    b = Bits()
    b.ue(0)
    b.ue(0)
    b.u(1, 0)
    b.u(1, 0)
    b.ue(0)
    b.ue(0)
    b.ue(0)
    b.u(1, 0)
    b.u(2, 0)
    b.ue(26 + 0 - 26)  # pic_init_qp_minus26 (se 0 == ue 0)
    b.ue(0)
    b.ue(0)
    b.u(1, 1)
    b.u(1, 0)
    b.u(1, 0)
    return b.nal(0x68)


def idr_slice():
    b = Bits()
    b.ue(0)     # first_mb_in_slice
    b.ue(7)     # slice_type: I
    b.ue(0)     # pic_parameter_set_id
    b.u(4, 0)   # frame_num
    b.ue(0)     # idr_pic_id
    b.u(1, 0)   # no_output_of_prior_pics_flag
    b.u(1, 0)   # long_term_reference_flag
    b.ue(0)     # slice_qp_delta
    b.ue(1)     # disable_deblocking_filter_idc
    b.u(64, 0x0123456789ABCDEF)
    return b.nal(0x65)


class Session:
    def __init__(self, sock, cfg, port, stopping):
        self.sock, self.cfg, self.port, self.stopping = sock, cfg, port, stopping
        self.buffer = b""

    def read_request(self):
        while b"\r\n\r\n" not in self.buffer:
            data = self.sock.recv(4096)
            if not data:
                return None
            self.buffer += data
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self.buffer += self.sock.recv(4096)
        self.buffer = self.buffer[length:]
        method, url, _version = lines[0].split(" ", 2)
        return method, url, headers

    def reply(self, cseq, status, headers=(), body=b""):
        text = f"RTSP/1.0 {status}\r\nCSeq: {cseq}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
        if body:
            text += f"Content-Length: {len(body)}\r\n"
        self.sock.sendall(text.encode() + b"\r\n" + body)

    def authorized(self, headers):
        if self.cfg.user is None:
            return True
        expected = "Basic " + base64.b64encode(f"{self.cfg.user}:{self.cfg.password}".encode()).decode()
        return headers.get("authorization", "") == expected

    def run(self):
        scheme = "rtsps" if self.cfg.tls else "rtsp"
        while not self.stopping.is_set():
            request = self.read_request()
            if request is None:
                return
            method, url, headers = request
            ok = self.authorized(headers)
            emit(event="request", method=method, url=url, authorized="authorization" in headers)
            cseq = headers.get("cseq", "0")
            if not ok:
                self.reply(cseq, "401 Unauthorized", [("WWW-Authenticate", 'Basic realm="camera"')])
            elif self.cfg.mode == "redirect":
                self.reply(cseq, "302 Found", [("Location", self.cfg.location)])
            elif self.cfg.mode == "redirect-self":
                self.reply(cseq, "302 Found", [("Location", url)])
            elif self.cfg.mode == "redirect-loop":
                with Counters.lock:
                    Counters.loops += 1
                    n = Counters.loops
                self.reply(cseq, "302 Found", [("Location", f"{scheme}://127.0.0.1:{self.port}/loop/{n}")])
            elif method == "OPTIONS":
                self.reply(cseq, "200 OK", [("Public", "OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN")])
            elif method == "DESCRIBE" and self.cfg.mode == "huge-describe":
                self.sock.sendall(f"RTSP/1.0 200 OK\r\nCSeq: {cseq}\r\nContent-Type: application/sdp\r\n"
                                  "Content-Length: 2147483000\r\n\r\n".encode())
                self.flood(b"v=0\r\n" * 10000)
                return
            elif method == "DESCRIBE":
                self.reply(cseq, "200 OK", [("Content-Type", "application/sdp"), ("Content-Base", url + "/")],
                           self.sdp())
            elif method == "SETUP":
                self.reply(cseq, "200 OK", [("Transport", "RTP/AVP/TCP;unicast;interleaved=0-1"),
                                            ("Session", "12345678;timeout=60")])
            elif method == "PLAY":
                self.reply(cseq, "200 OK", [("Session", "12345678")])
                self.endless_frame() if self.cfg.mode == "endless-frame" else self.play()
                return
            else:
                self.reply(cseq, "200 OK", [("Session", "12345678")])

    def sdp(self):
        sets = ",".join(base64.b64encode(n).decode() for n in (sps(self.cfg.width, self.cfg.height), pps()))
        return ("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=hostile\r\nc=IN IP4 0.0.0.0\r\nt=0 0\r\n"
                "m=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n"
                f"a=fmtp:96 packetization-mode=1;profile-level-id=42c033;sprop-parameter-sets={sets}\r\n"
                "a=control:trackID=0\r\n").encode()

    def play(self):
        seq, start = 0, time.monotonic()
        nals = [sps(self.cfg.width, self.cfg.height), pps(), idr_slice()]
        while not self.stopping.is_set():
            stamp = int((time.monotonic() - start) * 90000) & 0xFFFFFFFF
            for i, nal in enumerate(nals):
                marker = 0x80 if i == len(nals) - 1 else 0
                rtp = struct.pack(">BBHII", 0x80, marker | 96, seq & 0xFFFF, stamp, 0x1234) + nal
                self.sock.sendall(b"$\x00" + struct.pack(">H", len(rtp)) + rtp)
                seq += 1
            time.sleep(0.2)


    def flood(self, block):
        end = time.monotonic() + MISBEHAVE_SECONDS
        while time.monotonic() < end and not self.stopping.is_set():
            self.sock.sendall(block)

    def endless_frame(self):
        seq = 0

        def rtp(payload, marker=0):
            nonlocal seq
            packet = struct.pack(">BBHII", 0x80, marker | 96, seq & 0xFFFF, 0, 0x1234) + payload
            seq += 1
            return b"$\x00" + struct.pack(">H", len(packet)) + packet

        self.sock.sendall(rtp(sps(self.cfg.width, self.cfg.height)) + rtp(pps()))
        slice_ = idr_slice()
        fu_indicator = bytes([(slice_[0] & 0xE0) | 28])
        # FU-A: S bit on the first fragment only; the rest never contain a start code (no zero bytes).
        first = rtp(fu_indicator + bytes([0x80 | (slice_[0] & 0x1F)]) + slice_[1:])
        middle = rtp(fu_indicator + bytes([slice_[0] & 0x1F]) + b"\xaa" * 60000)
        self.sock.sendall(first)
        self.flood(middle * 16)


def serve(listener, context, cfg, stopping):
    port = listener.getsockname()[1]
    while True:
        raw, _addr = listener.accept()
        with Counters.lock:
            Counters.total += 1
            emit(event="client", total=Counters.total)
        threading.Thread(target=handle, args=(raw, context, cfg, port, stopping), daemon=True).start()


def handle(raw, context, cfg, port, stopping):
    try:
        sock = context.wrap_socket(raw, server_side=True) if context else raw
        Session(sock, cfg, port, stopping).run()
    except (OSError, ssl.SSLError, ValueError) as exc:
        log("hostile_rtsp_server", f"connection ended: {exc}")
    finally:
        raw.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--mode", choices=["redirect", "redirect-loop", "redirect-self", "huge-sps", "huge-describe", "endless-frame"],
                   required=True)
    p.add_argument("--location", default="rtsp://127.0.0.1:9/elsewhere", help="redirect: the 302 target")
    p.add_argument("--user")
    p.add_argument("--password", default="")
    p.add_argument("--tls", action="store_true", help="RTSPS with a self-signed certificate")
    p.add_argument("--width", type=int, default=8192)
    p.add_argument("--height", type=int, default=8192)
    cfg = p.parse_args()

    context = None
    if cfg.tls:
        with tempfile.TemporaryDirectory(prefix="layerwatch-hostile-rtsp-") as tmp:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*make_certificate(tmp, "01S00TESTSERIAL"))

    stopping = threading.Event()
    listener = listen(cfg.bind, cfg.port)
    threading.Thread(target=serve, args=(listener, context, cfg, stopping), daemon=True).start()
    announce_and_wait("hostile_rtsp_server", listener.getsockname()[1], stopping.set)
    return 0


if __name__ == "__main__":
    sys.exit(main())
