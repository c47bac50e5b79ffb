#!/usr/bin/env python3
"""Runs a real OctoPrint (PyPI's, from pypi-octoprint.sh) on loopback with its virtual printer
connected, for the tests that send it a file to print.

Why it exists: OctoPrint's upload API (POST /api/files/local with print=true) is tested against
OctoPrint itself, not a fake.  This starts `octoprint serve` headless in a temporary basedir whose
config turns the first-run wizard, the online checks and the plugins that reach the network off,
with one admin user whose API key is given (users.yaml), connects the virtual printer, and says
ready once OctoPrint reports it operational.  Stdlib only; any python3 runs it (OctoPrint runs in
its own venv).

stdin:  {"cmd":"job"}     prints {"event":"done","cmd":"job","job":…}  (GET /api/job)
        {"cmd":"files"}   prints {"event":"done","cmd":"files","names":[…]}  (GET /api/files/local)
stdout: {"event":"ready","port":N,"key":K}   {"event":"error","cmd":C,"message":M}
"""
import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import emit, listen, log, serve_commands  # noqa: E402

NAME = "real_octoprint"
KEY = "LayerwatchTestKey0123456789ABCDEF"

CONFIG = """server:
  firstRun: false
  onlineCheck: {enabled: false}
  pluginBlacklist: {enabled: false}
  seenWizards: {corewizard: 4}
plugins:
  _disabled: [softwareupdate, announcements, tracking, errortracking, pluginmanager, backup, firmware_check, achievements]
  virtual_printer: {enabled: true}
serial:
  autoconnect: false
"""

USERS = f"""admin:
  active: true
  apikey: {KEY}
  groups: [admins, users]
  password: no-login-with-a-password-here
  permissions: []
  settings: {{}}
"""


def api(port, path, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"X-Api-Key": KEY})
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as answer:
        data = answer.read()
        return json.loads(data) if data else None


def wait(what, seconds, check):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (OSError, http.client.HTTPException, urllib.error.URLError, ValueError):
            pass
        time.sleep(0.2)
    raise SystemExit(f"{NAME}: OctoPrint {what} within {seconds} s")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--octoprint", required=True, help="the octoprint executable (pypi-octoprint.sh prints it)")
    cfg = p.parse_args()

    base = tempfile.mkdtemp(prefix="layerwatch-octoprint-")
    with open(os.path.join(base, "config.yaml"), "w") as f:
        f.write(CONFIG)
    with open(os.path.join(base, "users.yaml"), "w") as f:
        f.write(USERS)
    probe = listen("127.0.0.1", 0)
    port = probe.getsockname()[1]
    probe.close()
    # --iknowwhatimdoing: CI runs as root, which OctoPrint refuses otherwise.
    server = subprocess.Popen([cfg.octoprint, "serve", "--iknowwhatimdoing", "--basedir", base, "--host", "127.0.0.1",
                               "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait("did not answer", 90, lambda: api(port, "/api/version")["server"])
        api(port, "/api/connection", {"command": "connect", "port": "VIRTUAL", "baudrate": 115200})
        wait("did not connect its virtual printer", 30, lambda: api(port, "/api/job")["state"] == "Operational")
        emit(event="ready", port=port, key=KEY)

        def handle(command):
            if command.get("cmd") == "job":
                emit(event="done", cmd="job", job=api(port, "/api/job"))
            elif command.get("cmd") == "files":
                emit(event="done", cmd="files", names=[f["name"] for f in api(port, "/api/files/local")["files"]])
            else:
                raise ValueError(f"unknown command {command.get('cmd')!r}")
        serve_commands(NAME, handle)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(base, ignore_errors=True)
        log(NAME, "stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
