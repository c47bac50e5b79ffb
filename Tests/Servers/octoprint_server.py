#!/usr/bin/env python3
"""Loopback fake of OctoPrint's REST API for printer status and camera discovery.

Why it exists: Layerwatch reads an OctoPrint printer's job and progress from `/api/job`, its
temperatures from `/api/printer` and its cameras from `/api/settings` (PROTOCOLS.md §5,
docs.octoprint.org).  This server answers those as OctoPrint 1.10 does, over HTTP/1.1 with
keep-alive and Content-Length, requires `X-Api-Key` (a missing or wrong key gets 403, as OctoPrint
answers an anonymous API request), and misbehaves on request (garbage, huge bodies, stalls, closed
connections, 500s).  The test changes the printer's state through JSON commands on stdin.  Stdlib
only; any python3 works.

Endpoints: GET /api/version, /api/server, /api/job, /api/settings
           GET /api/printer    409 {"error":"Printer is not operational"} while Offline / closedOrError
           GET /api/files/local/PATH   a stored file's entry, with the PrusaSlicer Thumbnails plugin's
                               `thumbnail` (a relative URL) and `thumbnail_src` for a file given one
           GET /plugin/prusaslicerthumbnails/thumbnail/NAME   the plugin's thumbnail (image/png)
           POST /api/job       {"command":"pause","action":…} / {"command":"cancel"}: 204, or 409
                               while neither printing nor paused (the state follows; a cancel
                               is Cancelling for a second, then Operational, as OctoPrint does)
           anything else       404 {"error":…}
stdin:  {"cmd":"set","job":{…},"progress":{…},"state":TEXT,"temperature":{…},"flags":{…}}
             deep-merged; a new `state` without `flags` sets the flags OctoPrint shows for it
        {"cmd":"settings","webcam":{…}}    replaces the settings' webcam block
        {"cmd":"thumbnail","path":P,"width":W,"height":H[,"garbage":true][,"address":A]}   stored file P
                                           gets a W x H PNG thumbnail (garbage: bytes that are no
                                           picture; address: the `thumbnail` its entry gives instead)
        {"cmd":"mode","mode":M[,"path":P][,"bytes":N]}   see servercommon.FaultModes
stdout: {"event":"ready","port":N}
        {"event":"request","method":"GET","path":P,"authorized":B}   every request, before answering
        {"event":"done","cmd":C,…}   {"event":"error","cmd":C,"message":M}
"""
import argparse
import copy
import os
from urllib.parse import unquote
import sys
import threading

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import (GARBAGE_PICTURE, JsonApiHandler, add_common_args, deep_merge, emit,  # noqa: E402
                          serve_http_commands, start_http_server, thumbnail_png)

NAME = "octoprint_server"
VERSION = "1.10.3"
# Werkzeug's descriptions, which OctoPrint's API returns as {"error": description}.
ERRORS = {
    403: "You don't have the permission to access the requested resource. It is either read-protected "
         "or not readable by the server.",
    404: "The requested URL was not found on the server. If you entered the URL manually please check "
         "your spelling and try again.",
    500: "The server encountered an internal error and was unable to complete your request. Either the "
         "server is overloaded or there is an error in the application.",
}

CANCELLING_SECONDS = 1.0
OPERATIONAL_STATES = {"Operational", "Printing", "Printing from SD", "Sending file to SD", "Starting",
                      "Paused", "Pausing", "Resuming", "Cancelling", "Finishing"}
PRINTING_STATES = {"Printing", "Printing from SD", "Sending file to SD", "Starting", "Resuming", "Finishing"}


def flags_for(text):
    """The state flags OctoPrint reports alongside a state text."""
    operational = text in OPERATIONAL_STATES
    busy = {"printing": text in PRINTING_STATES, "paused": text == "Paused", "pausing": text == "Pausing",
            "cancelling": text == "Cancelling", "resuming": text == "Resuming", "finishing": text == "Finishing"}
    error = text.startswith("Error") or text == "Offline after error"
    return {
        "operational": operational,
        **busy,
        "error": error,
        "ready": operational and not any(busy.values()),
        "closedOrError": text.startswith("Offline") or error or text == "Closed",
        "sdReady": False,
    }


def initial_printer():
    return {
        "state": "Operational",
        "flags": flags_for("Operational"),
        "job": {
            "file": {"name": None, "display": None, "path": None, "origin": None, "size": None, "date": None},
            "estimatedPrintTime": None,
            "averagePrintTime": None,
            "lastPrintTime": None,
            "filament": None,
            "user": None,
        },
        "progress": {"completion": None, "filepos": None, "printTime": None, "printTimeLeft": None,
                     "printTimeLeftOrigin": None},
        "temperature": {"tool0": {"actual": 22.3, "target": 0.0, "offset": 0},
                        "bed": {"actual": 21.8, "target": 0.0, "offset": 0}},
    }


def default_webcam(old):
    """OctoPrint's webcam settings; `old` is OctoPrint before 1.9, without webcams[]."""
    stream, snapshot = "/webcam/?action=stream", "http://127.0.0.1:8080/?action=snapshot"
    webcam = {
        "webcamEnabled": True,
        "timelapseEnabled": True,
        "streamUrl": stream,
        "snapshotUrl": snapshot,
        "streamRatio": "16:9",
        "streamTimeout": 5,
        "streamWebrtcIceServers": ["stun:stun.l.google.com:19302"],
        "snapshotTimeout": 5,
        "snapshotSslValidation": True,
        "cacheBuster": False,
        "flipH": False,
        "flipV": False,
        "rotate90": False,
        "ffmpegPath": "/usr/bin/ffmpeg",
    }
    if not old:
        webcam["defaultWebcam"] = webcam["snapshotWebcam"] = "classic"
        webcam["webcams"] = [{
            "name": "classic",
            "displayName": "Classic Webcam",
            "flipH": False,
            "flipV": False,
            "rotate90": False,
            "snapshotDisplay": snapshot,
            "canSnapshot": True,
            "compat": {"stream": stream, "snapshot": snapshot, "streamRatio": "16:9", "streamTimeout": 5,
                       "streamWebrtcIceServers": ["stun:stun.l.google.com:19302"], "cacheBuster": False,
                       "snapshotTimeout": 5, "snapshotSslValidation": True},
            "extras": {"streamUrl": stream, "streamRatio": "16:9", "streamTimeout": 5,
                       "streamWebrtcIceServers": ["stun:stun.l.google.com:19302"], "cacheBuster": False},
        }]
    return webcam


class Printer:
    """The printer's state and the settings' webcam block, shared by requests and stdin."""

    def __init__(self, old_settings):
        self.lock = threading.Lock()
        self.printer = initial_printer()
        self.webcam = default_webcam(old_settings)
        self.files = {}  # stored path → its entry
        self.thumbnails = {}  # the plugin's thumbnail name → bytes

    def add_thumbnail(self, command):
        path = str(command["path"])
        name = path.replace("/", "_").rsplit(".", 1)[0] + ".png"
        data = GARBAGE_PICTURE if command.get("garbage") else thumbnail_png(int(command["width"]), int(command["height"]))
        with self.lock:
            self.thumbnails[name] = data
            self.files[path] = {
                "name": path.rpartition("/")[2], "display": path.rpartition("/")[2], "path": path, "type": "machinecode",
                "typePath": ["machinecode", "gcode"], "origin": "local", "size": 1468987, "date": 1378847754,
                "refs": {"resource": f"http://127.0.0.1/api/files/local/{path}", "download": f"http://127.0.0.1/downloads/files/local/{path}"},
                "thumbnail": command.get("address") or f"plugin/prusaslicerthumbnails/thumbnail/{name}?20240101120000",
                "thumbnail_src": "prusaslicerthumbnails"}

    def file_entry(self, path):
        with self.lock:
            entry = copy.deepcopy(self.files.get(path))
        return (200, entry) if entry else (404, {"error": ERRORS[404]})

    def thumbnail(self, name):
        with self.lock:
            return self.thumbnails.get(name)

    def set(self, changes):
        changes = {k: v for k, v in changes.items() if k in ("job", "progress", "state", "temperature", "flags")}
        with self.lock:
            if "state" in changes and "flags" not in changes:
                self.printer["flags"] = flags_for(str(changes["state"]))
            deep_merge(self.printer, changes)

    def replace_webcam(self, webcam):
        with self.lock:
            self.webcam = copy.deepcopy(webcam)

    def job(self):
        with self.lock:
            p = copy.deepcopy(self.printer)
        return {"job": p["job"], "progress": p["progress"], "state": p["state"]}

    def printer_state(self):
        """(status, body) of GET /api/printer."""
        with self.lock:
            p = copy.deepcopy(self.printer)
        flags = p["flags"]
        if p["state"].startswith("Offline") or flags.get("closedOrError") or not flags.get("operational", True):
            return 409, {"error": "Printer is not operational"}
        return 200, {"temperature": p["temperature"], "sd": {"ready": bool(flags.get("sdReady"))},
                     "state": {"text": p["state"], "flags": flags, "error": ""}}

    def job_command(self, body):
        """POST /api/job: pause (action pause/resume/toggle) and cancel, answered 204 or 409 as
        OctoPrint does."""
        command = body.get("command") if isinstance(body, dict) else None
        action = body.get("action", "toggle") if isinstance(body, dict) else None
        with self.lock:
            state = self.printer["state"]
            if command == "pause" and action in ("pause", "resume", "toggle"):
                printing, paused = state == "Printing", state == "Paused"
                if not (printing or paused):
                    return 409, {"error": "Printer is neither printing nor paused, 'pause' command cannot be performed"}
                if (action == "pause" and paused) or (action == "resume" and printing):
                    return 204, None  # already there: OctoPrint answers 204 and does nothing
                new = "Paused" if printing else "Printing"
            elif command == "cancel":
                if state not in ("Printing", "Paused"):
                    return 409, {"error": "Printer is neither printing nor paused, 'cancel' command cannot be performed"}
                new = "Cancelling"
                # As OctoPrint: Cancelling while the printer finishes the lines it has, then Operational.
                threading.Timer(CANCELLING_SECONDS, self.set, args=({"state": "Operational"},)).start()
            else:
                return 400, {"error": "Unknown command"}
            self.printer["state"] = new
            self.printer["flags"] = flags_for(new)
        return 204, None

    def settings(self):
        with self.lock:
            webcam = copy.deepcopy(self.webcam)
        return {
            "api": {"allowCrossOrigin": False},
            "appearance": {"name": "Layerwatch test printer", "color": "default", "colorTransparent": False,
                           "showFahrenheitAlso": False},
            "feature": {"sdSupport": True, "temperatureGraph": True},
            "serial": {"port": "/dev/ttyACM0", "baudrate": 115200, "autoconnect": True},
            "temperature": {"cutoff": 30, "profiles": [{"name": "PLA", "extruder": 210, "bed": 60}]},
            "webcam": webcam,
        }


class Handler(JsonApiHandler):
    name = NAME
    garbage = b'{"job": {nonsense'

    def authorized(self):
        return self.header_matches("X-Api-Key", self.server.cfg.api_key)

    def unauthorized(self):
        return 403, {"error": ERRORS[403]}

    def error_body(self, status):
        return {"error": ERRORS.get(status, "Error")}

    def answer(self, path, _query):
        printer = self.server.printer
        if path == "/api/version":
            return 200, {"api": "0.1", "server": VERSION, "text": f"OctoPrint {VERSION}"}
        if path == "/api/server":
            return 200, {"version": VERSION, "safemode": None}
        if path == "/api/job":
            return 200, printer.job()
        if path == "/api/printer":
            return printer.printer_state()
        if path == "/api/settings":
            return 200, printer.settings()
        if path.startswith("/api/files/local/"):
            return printer.file_entry(unquote(path[len("/api/files/local/"):]))
        return 404, {"error": ERRORS[404]}

    def respond(self, mode, size, authorized, url):
        prefix = "/plugin/prusaslicerthumbnails/thumbnail/"
        data = self.server.printer.thumbnail(unquote(url.path[len(prefix):])) if url.path.startswith(prefix) else None
        if mode == "normal" and authorized and self.command == "GET" and data is not None:
            self.send_picture(data)
        else:
            super().respond(mode, size, authorized, url)

    def answer_post(self, path, body):
        if path == "/api/job":
            return self.server.printer.job_command(body)
        return 404, {"error": ERRORS[404]}


def handle_command(server, command):
    name = command.get("cmd")
    if name == "set":
        server.printer.set(command)
        emit(event="done", cmd=name)
    elif name == "settings":
        server.printer.replace_webcam(command.get("webcam") or {})
        emit(event="done", cmd=name)
    elif name == "thumbnail":
        server.printer.add_thumbnail(command)
        emit(event="done", cmd=name)
    elif name == "mode":
        emit(event="done", cmd=name, **server.faults.apply(command))
    else:
        raise ValueError(f"unknown command {name!r}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--api-key", default="OCTOKEY123456", help="the key X-Api-Key must carry (else 403)")
    p.add_argument("--old-settings", action="store_true", help="OctoPrint before 1.9: no webcam.webcams[]")
    cfg = p.parse_args()

    printer = Printer(cfg.old_settings)
    server = start_http_server(NAME, cfg, Handler)
    server.printer = printer
    serve_http_commands(NAME, server, handle_command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
