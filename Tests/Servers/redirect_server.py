#!/usr/bin/env python3
"""Loopback HTTP server that answers every request with a redirect to --location.

Why it exists: the status APIs' hardening tests check that an API key or password never follows a
redirect to another scheme, host or port (point --location at sink_server.py, the other "host"),
that a redirect within the same origin is followed, and that a redirect loop ends.  Stdlib only;
any python3 works.

  --location TEMPLATE  the Location sent; "{target}" in it becomes the request target (path and
                       query): "http://127.0.0.1:PORT{target}" sends every request to another port,
                       "{target}" back to itself (a loop), "/moved{target}" elsewhere on this server
  --status N           the redirect's status (default 302)
  --upstream PORT      a request under /moved/ is not redirected but relayed to 127.0.0.1:PORT with
                       the /moved prefix removed and its headers kept, as a reverse proxy whose API
                       moved: with --location "/moved{target}" a same-origin redirect that ends in
                       a real answer (a moonraker_server.py or octoprint_server.py behind it)
stdout: {"event":"ready","port":N}
        {"event":"request","path":P,"headers":[NAME,...]}   (every request, before its answer)
        {"event":"relayed","path":P,"status":S}              (a /moved/ request upstream answered)
"""
import argparse
import http.client
import os
import sys
from http.server import BaseHTTPRequestHandler

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import add_common_args, announce_and_wait, emit, log, start_http_server, stop_http_server  # noqa: E402

NAME = "redirect_server"
PREFIX = "/moved"
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "nginx/1.22.1"  # what a reverse proxy in front of a printer's API says

    def version_string(self):
        return self.server_version

    def log_message(self, fmt, *args):
        log(NAME, fmt % args)

    def do_GET(self):
        emit(event="request", path=self.path, headers=list(self.headers.keys()))
        cfg = self.server.cfg
        if cfg.upstream and self.path.startswith(PREFIX + "/"):
            self.relay(cfg.upstream, self.path[len(PREFIX):])
            return
        body = b"moved\n"
        self.send_response(cfg.status)
        self.send_header("Location", cfg.location.replace("{target}", self.path))
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def relay(self, port, target):
        upstream = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
        upstream.request("GET", target, headers=headers)
        answer = upstream.getresponse()
        body = answer.read()
        upstream.close()
        emit(event="relayed", path=target, status=answer.status)
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in HOP_BY_HOP and name.lower() not in ("server", "date"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--location", required=True, help='the Location; "{target}" becomes the request target')
    p.add_argument("--status", type=int, default=302, choices=(301, 302, 303, 307, 308))
    p.add_argument("--upstream", type=int, metavar="PORT", help="relay requests under /moved/ to 127.0.0.1:PORT")
    cfg = p.parse_args()
    server = start_http_server(NAME, cfg, Handler)
    announce_and_wait(NAME, server.server_address[1], lambda: stop_http_server(server))
    return 0


if __name__ == "__main__":
    sys.exit(main())
