#!/usr/bin/python3
"""The desktop portal's Background interface on the session bus, recording what it is asked.

Why it exists: inside Flatpak, Layerwatch's Start at Login asks
org.freedesktop.portal.Background.RequestBackground instead of writing an autostart entry; the test
machine runs no portal, so the tests start this peer on their private bus (dbus-run-session) under
a name of their choosing (`--name`).  It serves /org/freedesktop/portal/desktop, answers each call
with the request's object path (/org/freedesktop/portal/desktop/request/SENDER/TOKEN, from the
caller's unique name and its `handle_token`), then emits that request's Response signal:
0 with {background: true, autostart: <as asked>}.

stdout: {"event":"ready"}                                   (the name is owned)
        {"event":"request","parent_window":S,"options":{…}} (each call, options unpacked)
It exits when its stdin closes.  Needs /usr/bin/python3 with python3-gi.
"""
import argparse
import os
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import emit, log  # noqa: E402

NAME = "background_portal"
PATH = "/org/freedesktop/portal/desktop"
XML = """
<node>
  <interface name="org.freedesktop.portal.Background">
    <method name="RequestBackground">
      <arg type="s" name="parent_window" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="o" name="handle" direction="out"/>
    </method>
  </interface>
</node>
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="org.freedesktop.portal.Desktop")
    args = parser.parse_args()
    loop = GLib.MainLoop()
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def on_call(connection, sender, _path, _interface, _method, parameters, invocation):
        parent, options = parameters.unpack()
        emit(event="request", parent_window=parent, options=options)
        token = options.get("handle_token", "t")
        handle = f"/org/freedesktop/portal/desktop/request/{sender[1:].replace('.', '_')}/{token}"
        invocation.return_value(GLib.Variant("(o)", (handle,)))
        results = {"background": GLib.Variant("b", True), "autostart": GLib.Variant("b", bool(options.get("autostart", False)))}
        connection.emit_signal(sender, handle, "org.freedesktop.portal.Request", "Response",
                               GLib.Variant("(ua{sv})", (0, results)))

    bus.register_object(PATH, Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], on_call, None, None)

    def on_lost(_bus, name):
        log(NAME, f"cannot own {name}")
        loop.quit()

    Gio.bus_own_name_on_connection(bus, args.name, Gio.BusNameOwnerFlags.NONE, lambda *_: emit(event="ready"), on_lost)
    for sig in (2, 15):  # SIGINT, SIGTERM
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, sig, lambda *_: loop.quit() or GLib.SOURCE_REMOVE)

    def on_stdin(_fd, _condition):
        if not os.read(sys.stdin.fileno(), 4096):
            log(NAME, "stdin closed, exiting")
            loop.quit()
            return GLib.SOURCE_REMOVE
        return GLib.SOURCE_CONTINUE

    GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, sys.stdin.fileno(),
                          GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR, on_stdin)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
