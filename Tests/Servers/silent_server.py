#!/usr/bin/env python3
"""Loopback TCP peer that accepts connections and never answers.

Why it exists: a camera that is powered but hung (or a firewall that lets the
SYN through) must not freeze the viewer; the Swift tests point a client at
this server to check that connect/read timeouts fire and the UI stays alive.
With --close-after-accept every connection is closed right after accept, the
"connection closed by peer at once" case (e.g. a printer with LAN live view off).
Stdlib only.

stdout: {"event":"ready","port":N}
        {"event":"accepted","total":T}          (every accepted connection)
        {"event":"peer-closed","open":K}       (a kept connection was closed by the client)
Bytes a client sends are read and discarded; nothing is ever sent.
"""
import argparse
import os
import selectors
import sys
import threading

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import add_common_args, emit, listen, wait_for_stop  # noqa: E402


def serve(listener, close_after_accept):
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ)
    total, open_conns = 0, 0
    while True:
        for key, _ in sel.select():
            if key.fileobj is listener:
                conn, _addr = listener.accept()
                total += 1
                emit(event="accepted", total=total)
                if close_after_accept:
                    conn.close()
                else:
                    open_conns += 1
                    sel.register(conn, selectors.EVENT_READ)
            else:
                try:
                    data = key.fileobj.recv(65536)
                except OSError:
                    data = b""
                if not data:
                    sel.unregister(key.fileobj)
                    key.fileobj.close()
                    open_conns -= 1
                    emit(event="peer-closed", open=open_conns)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--close-after-accept", action="store_true",
                   help="close each connection right after accepting it")
    a = p.parse_args()
    listener = listen(a.bind, a.port)
    threading.Thread(target=serve, args=(listener, a.close_after_accept), daemon=True).start()
    emit(event="ready", port=listener.getsockname()[1])
    wait_for_stop("silent_server")
    return 0


if __name__ == "__main__":
    sys.exit(main())
