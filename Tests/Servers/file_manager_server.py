#!/usr/bin/python3
"""A file manager on the session bus that records the files it is asked to show.

Why it exists: Layerwatch's "Show in Files" (a saved snapshot's, recording's or timelapse's toast)
calls org.freedesktop.FileManager1.ShowItems, as GNOME Shell's screenshot notification does; the
test machine runs no desktop, so the tests start this peer on their private bus
(dbus-run-session).  It owns org.freedesktop.FileManager1 at /org/freedesktop/FileManager1 with the
interface's three methods (ShowFolders, ShowItems, ShowItemProperties, each `(ass)`: URIs and a
startup id) and prints every call as a JSON event.

stdout: {"event":"ready"}                                   (the name is owned)
        {"event":"call","method":S,"uris":[S…],"startup_id":S}
It exits when its stdin closes.  Needs /usr/bin/python3 with python3-gi.
"""
import os
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import emit, log  # noqa: E402

NAME = "file_manager_server"
BUS_NAME = "org.freedesktop.FileManager1"
PATH = "/org/freedesktop/FileManager1"
XML = """
<node>
  <interface name="org.freedesktop.FileManager1">
    <method name="ShowFolders">
      <arg type="as" name="URIs" direction="in"/>
      <arg type="s" name="StartupId" direction="in"/>
    </method>
    <method name="ShowItems">
      <arg type="as" name="URIs" direction="in"/>
      <arg type="s" name="StartupId" direction="in"/>
    </method>
    <method name="ShowItemProperties">
      <arg type="as" name="URIs" direction="in"/>
      <arg type="s" name="StartupId" direction="in"/>
    </method>
  </interface>
</node>
"""


def on_call(_bus, _sender, _path, _interface, method, parameters, invocation):
    uris, startup_id = parameters.unpack()
    emit(event="call", method=method, uris=list(uris), startup_id=startup_id)
    invocation.return_value(None)


def main():
    loop = GLib.MainLoop()
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    bus.register_object(PATH, Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], on_call, None, None)

    def on_lost(_bus, name):
        log(NAME, f"cannot own {name}")
        loop.quit()

    Gio.bus_own_name_on_connection(bus, BUS_NAME, Gio.BusNameOwnerFlags.NONE, lambda *_: emit(event="ready"), on_lost)
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
