#!/usr/bin/env python3
"""Loopback listener that records what reaches it: connections and every byte received.

Why it exists: the hardening tests point a hostile camera's redirect or playlist at this second
"host" and then assert it was never contacted, or at least never sent a byte (no credentials,
no request).  It sends nothing itself.  Stdlib only; any python3 works.

stdout: {"event":"ready","port":N}
        {"event":"accepted","total":T}          (TCP connection accepted)
        {"event":"data","bytes":N,"total":B,"text":T}   (N bytes arrived; B on all connections so
                                                  far; T: those bytes as ISO-8859-1 text)
        {"event":"closed","bytes":N}             (a connection ended after N bytes)
"""
import argparse
import os
import sys
import threading

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import add_common_args, emit, listen, wait_for_stop  # noqa: E402


class Counters:
    lock = threading.Lock()
    accepted = 0
    received = 0


def handle(conn):
    got = 0
    try:
        while True:
            data = conn.recv(65536)
            if not data:
                break
            got += len(data)
            with Counters.lock:
                Counters.received += len(data)
                emit(event="data", bytes=len(data), total=Counters.received, text=data.decode("latin-1"))
    except OSError:
        pass
    finally:
        conn.close()
        emit(event="closed", bytes=got)


def serve(listener):
    while True:
        conn, _addr = listener.accept()
        with Counters.lock:
            Counters.accepted += 1
            emit(event="accepted", total=Counters.accepted)
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    cfg = p.parse_args()
    listener = listen(cfg.bind, cfg.port)
    threading.Thread(target=serve, args=(listener,), daemon=True).start()
    emit(event="ready", port=listener.getsockname()[1])
    wait_for_stop("sink_server")
    return 0


if __name__ == "__main__":
    sys.exit(main())
