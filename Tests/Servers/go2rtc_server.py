#!/usr/bin/env python3
"""Loopback fake of go2rtc's HTTP API, for importing its streams as cameras.

Why it exists: print farms put go2rtc in front of printers that take one camera client, and
Layerwatch lists its streams (`layerwatch cameras go2rtc://HOST`, PROTOCOLS.md §6) from
`GET /api/streams`: an object keyed by stream name, each value with `producers` (their `url`) and
`consumers` (null when nobody watches).  This server answers that as go2rtc 1.9 does, optionally
behind Basic auth (go2rtc's `api: username/password`), with the same fault modes as the Moonraker
and OctoPrint fakes.  Stdlib only; any python3 works.

Endpoints: GET /api/streams   the streams
           anything else      404
stdin:  {"cmd":"streams","streams":{NAME:[SOURCE,…],…}}   replaces the streams
        {"cmd":"mode","mode":M[,"path":P][,"bytes":N]}    see servercommon.FaultModes
stdout: {"event":"ready","port":N}
        {"event":"request","method":"GET","path":P,"authorized":B}
        {"event":"done","cmd":C,…}   {"event":"error","cmd":C,"message":M}
"""
import argparse
import base64
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import (JsonApiHandler, add_common_args, emit, serve_http_commands,  # noqa: E402
                          start_http_server)

NAME = "go2rtc_server"
DEFAULT_STREAMS = {
    "x1c": ["rtspx://bblp:CODE@192.0.2.10:322/streaming/live/1"],
    "p1s": ["exec:layerwatch relay bambu-jpeg://192.0.2.11?code=CODE"],
}


class Handler(JsonApiHandler):
    name = NAME
    server_version = "go2rtc/1.9.4"
    garbage = b'{"x1c": {"producers": [nonsense'

    def authorized(self):
        credentials = self.server.cfg.basic_auth
        if credentials is None:
            return True
        expected = "Basic " + base64.b64encode(credentials.encode()).decode()
        return self.header_matches("Authorization", expected)

    def unauthorized(self):
        return 401, {"error": "Unauthorized"}

    def send_response(self, code, message=None):
        super().send_response(code, message)
        if code == 401:
            # As go2rtc's API asks for its `api:` credentials (browsers then prompt for them).
            self.send_header("WWW-Authenticate", 'Basic realm="go2rtc"')

    def error_body(self, status):
        return {"error": f"status {status}"}

    def answer(self, path, query):
        if path == "/api/streams":
            return 200, {name: {"producers": [{"url": source} for source in sources], "consumers": None}
                         for name, sources in self.server.streams.items()}
        return 404, {"error": "not found"}


def handle_command(server, command):
    name = command.get("cmd")
    if name == "streams":
        server.streams = dict(command.get("streams") or {})
        emit(event="done", cmd=name)
    elif name == "mode":
        emit(event="done", cmd=name, **server.faults.apply(command))
    else:
        raise ValueError(f"unknown command {name!r}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--basic-auth", metavar="USER:PASSWORD", help="require HTTP Basic auth (else 401)")
    cfg = p.parse_args()
    server = start_http_server(NAME, cfg, Handler)
    server.streams = dict(DEFAULT_STREAMS)
    serve_http_commands(NAME, server, handle_command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
