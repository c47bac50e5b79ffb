#!/usr/bin/env python3
"""A camera whose error answer carries terminal escapes in its reason phrase.

Why it exists: an RTSP or HTTP server chooses its status line's reason text freely, and a hostile
one can put ESC ] 0 ; … BEL (set the terminal's title), colour codes or C1 controls in it; the
tests check that `layerwatch probe` never prints them raw.

  --protocol rtsp  OPTIONS is answered 200; every other request (DESCRIBE) gets
                   `RTSP/1.0 400 <REASON>`.
  --protocol http  every request gets `HTTP/1.0 500 <REASON>`.

REASON is ESC ]0;pwned BEL, ESC [31m, C1 CSI (0x9B, sent as UTF-8), a right-to-left override
and ESC [0m around the word "Broken".

stdout: {"event":"ready","port":N}
        {"event":"request","method":S}
Stdlib only; any python3 works.
"""
import argparse
import os
import sys
import threading

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import add_common_args, emit, listen, wait_for_stop  # noqa: E402

REASON = "\x1b]0;pwned\x07\x1b[31mBroken\x9b2J\u202e\x1b[0m".encode("utf-8")


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            return None
        data += chunk
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    lines = head.split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return lines[0].split(" ")[0], headers


def serve_rtsp(conn):
    while True:
        request = read_request(conn)
        if request is None:
            return
        method, headers = request
        emit(event="request", method=method)
        cseq = headers.get("cseq", "0").encode()
        if method == "OPTIONS":
            conn.sendall(b"RTSP/1.0 200 OK\r\nCSeq: " + cseq
                         + b"\r\nPublic: OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN\r\n\r\n")
        else:
            conn.sendall(b"RTSP/1.0 400 " + REASON + b"\r\nCSeq: " + cseq + b"\r\n\r\n")


def serve_http(conn):
    request = read_request(conn)
    if request is None:
        return
    emit(event="request", method=request[0])
    conn.sendall(b"HTTP/1.0 500 " + REASON + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


def main():
    parser = argparse.ArgumentParser()
    add_common_args(parser)
    parser.add_argument("--protocol", choices=["rtsp", "http"], default="rtsp")
    args = parser.parse_args()
    server = listen(args.bind, args.port)
    serve = serve_rtsp if args.protocol == "rtsp" else serve_http

    def accept_loop():
        while True:
            conn, _ = server.accept()

            def handle(conn=conn):
                with conn:
                    try:
                        serve(conn)
                    except OSError:
                        pass

            threading.Thread(target=handle, daemon=True).start()

    threading.Thread(target=accept_loop, daemon=True).start()
    emit(event="ready", port=server.getsockname()[1])
    wait_for_stop("hostile_reason_server")
    return 0


if __name__ == "__main__":
    sys.exit(main())
