#!/usr/bin/env python3
"""Loopback fake of PrusaLink, the HTTP API in a Prusa printer's Buddy firmware (MK4, XL, Core One).

Why it exists: Layerwatch reads a Prusa printer's state, temperatures and job from
`/api/v1/status` and `/api/v1/job`, and pauses, resumes and stops its job through
`/api/v1/job/{id}` (PROTOCOLS.md §12; prusa3d/Prusa-Link-Web spec/openapi.yaml, Prusa-Firmware-Buddy
lib/WUI).  This server answers those as the firmware does: HTTP Digest (realm "Printer API", user
`maker`, MD5, no qop; a nonce lives `--nonce-seconds`, then a correct answer with it gets 401
`stale=true` and a new nonce), or `X-Api-Key` with the same password; anything else gets 401 with
a fresh challenge (`--no-digest`: older firmware, X-Api-Key only and a 401 without a challenge).  A job command for another job id gets 404, one that does not fit the state 409.
The job's thumbnail is a PNG at `/thumb/l/usb/NAME`.  Stdlib only; any python3 works.

Endpoints: GET /api/version, /api/v1/info, /api/v1/status
           GET /api/v1/job                 204 (no body) without a job
           GET /thumb/l/usb/NAME          the job's thumbnail (image/png)
           PUT /api/v1/job/ID/pause       204 while PRINTING (→ PAUSED), else 409
           PUT /api/v1/job/ID/resume      204 while PAUSED (→ PRINTING), else 409
           DELETE /api/v1/job/ID          204 while PRINTING or PAUSED (→ STOPPED), else 409
           PUT /api/v1/files/usb/NAME     the file as the body, stored (its hash, servercommon.Uploads);
                                          Print-After-Upload: ?1 starts it (409 when the printer is busy)
           DELETE /api/v1/files/usb/NAME  deletes a stored (or partial) file
stdin:  {"cmd":"set","printer":{…},"job":{…}|null}   deep-merges the printer fields; "job" null ends it
        {"cmd":"thumbnail","width":W,"height":H[,"garbage":true]}   the job's thumbnail
        {"cmd":"expire"}                  every nonce given so far is stale from now on
        {"cmd":"mode","mode":M[,"path":P][,"bytes":N]}   see servercommon.FaultModes
        {"cmd":"upload_rate","bytes_per_second":N|null}   uploads read that slowly
stdout: {"event":"ready","port":N}
        {"event":"upload","name":N,"fields":{},"size":S,"sha256":H,"complete":B}   {"event":"deleted","name":N}
        {"event":"request","method":M,"path":P,"authorized":B,"auth":"digest"|"apikey"|null,"stale":B}
        {"event":"done","cmd":C,…}   {"event":"error","cmd":C,"message":M}
"""
import argparse
import copy
import hashlib
import os
import re
import secrets
import sys
import threading
import time
from urllib.parse import unquote, urlsplit

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import (GARBAGE_PICTURE, JsonApiHandler, add_common_args, deep_merge, emit,  # noqa: E402
                          serve_http_commands, start_http_server, thumbnail_png)

NAME = "prusalink_server"
REALM = "Printer API"
USER = "maker"
UPLOADS = "/api/v1/files/usb/"
STATES = ("IDLE", "BUSY", "PRINTING", "PAUSED", "FINISHED", "STOPPED", "ERROR", "ATTENTION", "READY")


def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


def initial_printer():
    return {"state": "IDLE", "temp_bed": 23.8, "target_bed": 0.0, "temp_nozzle": 24.0, "target_nozzle": 0.0,
            "axis_z": 0.0, "axis_x": -8.0, "axis_y": -9.0, "flow": 100, "speed": 100, "fan_hotend": 0, "fan_print": 0}


class Printer:
    """The printer's state, job and thumbnail, shared by requests and stdin."""

    def __init__(self):
        self.lock = threading.Lock()
        self.printer = initial_printer()
        self.job = None
        self.thumbnail = None

    def set(self, command):
        with self.lock:
            if isinstance(command.get("printer"), dict):
                deep_merge(self.printer, command["printer"])
            if "job" in command:
                if command["job"] is None:
                    self.job = None
                else:
                    if self.job is None:
                        self.job = {"id": 1, "progress": 0.0, "time_remaining": 0, "time_printing": 0,
                                    "file": {"name": "BENCHY~1.BGC", "display_name": "benchy.bgcode", "path": "/usb",
                                             "size": 1234567, "m_timestamp": 1700000000}}
                    deep_merge(self.job, command["job"])
                    name = self.job["file"].get("name")
                    self.job["file"]["refs"] = {"icon": f"/thumb/s/usb/{name}", "thumbnail": f"/thumb/l/usb/{name}",
                                                "download": f"/usb/{name}"}

    def start(self, name):
        """Starts printing the uploaded file `name` when the printer is free; False when not."""
        with self.lock:
            busy = self.printer.get("state") in ("PRINTING", "PAUSED", "BUSY")
        if busy:
            return False
        self.set({"printer": {"state": "PRINTING"}, "job": None})
        self.set({"job": {"file": {"name": name, "display_name": name, "path": "/usb"}}})
        return True

    def status(self):
        with self.lock:
            body = {"storage": {"path": "/usb/", "name": "usb", "read_only": False},
                    "printer": copy.deepcopy(self.printer)}
            if self.job is not None:
                body["job"] = {k: self.job[k] for k in ("id", "progress", "time_remaining", "time_printing") if k in self.job}
        return body

    def job_body(self):
        with self.lock:
            if self.job is None:
                return 204, None
            return 200, dict(copy.deepcopy(self.job), state=self.printer.get("state"))

    def thumbnail_for(self, name):
        with self.lock:
            if self.job is None or self.job["file"].get("name") != name:
                return None
            return self.thumbnail

    def command(self, method, path):
        """PUT pause/resume and DELETE on /api/v1/job/ID: (status, body)."""
        match = re.fullmatch(r"/api/v1/job/(\d+)(/pause|/resume)?", path)
        if not match:
            return 404, {"title": "Not Found", "message": "Not Found"}
        with self.lock:
            if self.job is None or int(match.group(1)) != self.job.get("id"):
                return 404, {"title": "Not Found", "message": "No such job"}
            state, action = self.printer.get("state"), match.group(2)
            if method == "PUT" and action == "/pause" and state == "PRINTING":
                self.printer["state"] = "PAUSED"
            elif method == "PUT" and action == "/resume" and state == "PAUSED":
                self.printer["state"] = "PRINTING"
            elif method == "DELETE" and action is None and state in ("PRINTING", "PAUSED"):
                self.printer["state"] = "STOPPED"
            elif method in ("PUT", "DELETE"):
                return 409, {"title": "Conflict", "message": "Conflict"}
            else:
                return 405, {"title": "Method Not Allowed", "message": "Method Not Allowed"}
        return 204, None


class Nonces:
    """The nonces given out, each with its birth; all given before an `expire` are stale."""

    def __init__(self, lifetime):
        self.lock = threading.Lock()
        self.lifetime = lifetime
        self.born = {}

    def fresh(self):
        nonce = secrets.token_hex(8)
        with self.lock:
            self.born[nonce] = time.monotonic()
        return nonce

    def is_live(self, nonce):
        with self.lock:
            born = self.born.get(nonce)
        return born is not None and time.monotonic() - born < self.lifetime

    def expire(self):
        with self.lock:
            self.born = {nonce: born - self.lifetime for nonce, born in self.born.items()}


def digest_fields(header):
    if not header.lower().startswith("digest "):
        return None
    return {k.lower(): v1 if v1 else v2 for k, v1, v2 in re.findall(r'(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))', header[7:])}


class Handler(JsonApiHandler):
    name = NAME
    server_version = "PrusaLink"
    garbage = b'{"printer": {nonsense'

    def check(self):
        """(authorized, how, stale) for this request."""
        password = self.server.cfg.password
        if self.headers.get("X-Api-Key") is not None:
            return self.header_matches("X-Api-Key", password), "apikey", False
        fields = digest_fields(self.headers.get("Authorization", ""))
        if fields is None or self.server.cfg.no_digest:
            return False, None, False
        first, second = md5(f"{USER}:{REALM}:{password}"), md5(f"{self.command}:{fields.get('uri', '')}")
        expected = md5(f"{first}:{fields.get('nonce', '')}:{second}")
        correct = (fields.get("username") == USER and fields.get("realm") == REALM and fields.get("uri") == self.path
                   and secrets.compare_digest(fields.get("response", ""), expected))
        if not correct:
            return False, "digest", False
        if not self.server.nonces.is_live(fields.get("nonce", "")):
            return False, "digest", True
        return True, "digest", False

    def authorized(self):
        ok, how, stale = self.check()
        self.auth_how, self.auth_stale = how, stale
        return ok

    def unauthorized(self):
        return 401, {"title": "Unauthorized", "message": "Unauthorized"}

    def error_body(self, status):
        return {"title": "Error", "message": f"Error {status}"}

    def send_response(self, code, message=None):
        super().send_response(code, message)
        if code == 401 and not self.server.cfg.no_digest:
            stale = ', stale=true' if getattr(self, "auth_stale", False) else ''
            self.send_header("WWW-Authenticate", f'Digest realm="{REALM}", nonce="{self.server.nonces.fresh()}"{stale}')

    def handle_request(self, method):
        authorized = self.authorized()
        emit(event="request", method=method, path=self.path, authorized=authorized, auth=self.auth_how, stale=self.auth_stale)
        url = urlsplit(self.path)
        mode, size = self.server.faults.for_path(url.path)
        try:
            self.respond(mode, size, authorized, url)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def do_GET(self):
        self.handle_request("GET")

    def do_PUT(self):
        path = urlsplit(self.path).path
        if path.startswith(UPLOADS):
            self.receive_upload(path, None, unquote(path[len(UPLOADS):]))
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.rfile.read(min(length, self.MAX_POST))
        self.handle_request("PUT")

    def uploaded(self, _path, _fields, name, _record):
        """The firmware's answer to a file PUT: 201, and with Print-After-Upload: ?1 the print
        started when the printer is free (409 when it is not)."""
        if self.headers.get("Print-After-Upload") == "?1" and not self.server.printer.start(name):
            return 409, {"title": "Conflict", "message": "Printer is busy"}
        return 201, None

    def do_DELETE(self):
        path = urlsplit(self.path).path
        if path.startswith(UPLOADS):
            authorized = self.authorized()
            emit(event="request", method="DELETE", path=self.path, authorized=authorized, auth=self.auth_how, stale=self.auth_stale)
            if not authorized:
                self.send_json(*self.unauthorized())
            elif self.server.uploads.delete(unquote(path[len(UPLOADS):])):
                emit(event="deleted", name=unquote(path[len(UPLOADS):]))
                self.send_json(204, None)
            else:
                self.send_json(404, {"title": "Not Found", "message": "Not Found"})
            return
        self.handle_request("DELETE")

    def reply(self, url):
        if self.command in ("PUT", "DELETE"):
            return self.server.printer.command(self.command, url.path)
        return self.answer(url.path, url.query)

    def answer(self, path, _query):
        printer = self.server.printer
        if path == "/api/version":
            return 200, {"api": "2.0.0", "server": "2.1.2", "nozzle_diameter": 0.4, "text": "PrusaLink", "hostname": "",
                         "capabilities": {"upload-by-put": True}}
        if path == "/api/v1/info":
            return 200, {"nozzle_diameter": 0.4, "mmu": False, "serial": "10589-3742441631902345", "hostname": "",
                         "min_extrusion_temp": 170}
        if path == "/api/v1/status":
            return 200, printer.status()
        if path == "/api/v1/job":
            return printer.job_body()
        return 404, {"title": "Not Found", "message": "Not Found"}

    def respond(self, mode, size, authorized, url):
        prefix = "/thumb/l/usb/"
        data = self.server.printer.thumbnail_for(unquote(url.path[len(prefix):])) if url.path.startswith(prefix) else None
        if mode == "normal" and authorized and self.command == "GET" and data is not None:
            self.send_picture(data)
        else:
            super().respond(mode, size, authorized, url)


def handle_command(server, command):
    name = command.get("cmd")
    if name == "set":
        state = (command.get("printer") or {}).get("state")
        if state is not None and state not in STATES:
            raise ValueError(f"unknown state {state!r}")
        server.printer.set(command)
        emit(event="done", cmd=name)
    elif name == "thumbnail":
        data = GARBAGE_PICTURE if command.get("garbage") else thumbnail_png(int(command["width"]), int(command["height"]))
        with server.printer.lock:
            server.printer.thumbnail = data
        emit(event="done", cmd=name)
    elif name == "expire":
        server.nonces.expire()
        emit(event="done", cmd=name)
    elif name == "mode":
        emit(event="done", cmd=name, **server.faults.apply(command))
    else:
        raise ValueError(f"unknown command {name!r}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--password", default="PrusaPass1", help="the password of user maker (and the X-Api-Key)")
    p.add_argument("--nonce-seconds", type=float, default=300, help="how long a nonce lives (the firmware's 300 s)")
    p.add_argument("--no-digest", action="store_true",
                   help="older firmware: X-Api-Key only, a 401 without a Digest challenge")
    cfg = p.parse_args()

    server = start_http_server(NAME, cfg, Handler)
    server.printer = Printer()
    server.nonces = Nonces(cfg.nonce_seconds)
    serve_http_commands(NAME, server, handle_command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
