#!/usr/bin/python3
"""org.gnome.SessionManager's inhibitor interface on the session bus, recording every call.

Why it exists: GtkApplication keeps the screen awake (gtk_application_inhibit) by calling the
session manager over D-Bus; the test machine runs no GNOME session, so the app's tests start this
peer on their private bus (dbus-run-session) and read what the app asked for.  It is the real
protocol (same bus name, object path, interface and signatures as gnome-session), answering
Inhibit with a fresh cookie like gnome-session does.

stdout: {"event":"ready"}                                   (the bus name is owned)
        {"event":"register","app_id":S}                      (GtkApplication registering itself)
        {"event":"inhibit","app_id":S,"toplevel_xid":U,"reason":S,"flags":U,"cookie":C}
        {"event":"uninhibit","cookie":C,"known":B}
It exits when its stdin closes.  Needs /usr/bin/python3 with python3-gi.
"""
import os
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import emit, serve_dbus_name  # noqa: E402

INTERFACE = """
<node>
  <interface name="org.gnome.SessionManager">
    <method name="RegisterClient">
      <arg type="s" name="app_id" direction="in"/>
      <arg type="s" name="client_startup_id" direction="in"/>
      <arg type="o" name="client_id" direction="out"/>
    </method>
    <method name="UnregisterClient">
      <arg type="o" name="client_id" direction="in"/>
    </method>
    <method name="Inhibit">
      <arg type="s" name="app_id" direction="in"/>
      <arg type="u" name="toplevel_xid" direction="in"/>
      <arg type="s" name="reason" direction="in"/>
      <arg type="u" name="flags" direction="in"/>
      <arg type="u" name="inhibit_cookie" direction="out"/>
    </method>
    <method name="Uninhibit">
      <arg type="u" name="inhibit_cookie" direction="in"/>
    </method>
    <method name="IsInhibited">
      <arg type="u" name="flags" direction="in"/>
      <arg type="b" name="is_inhibited" direction="out"/>
    </method>
  </interface>
</node>
"""


def main():
    inhibitors = {}  # cookie -> flags
    next_cookie = [1]

    def on_call(_connection, _sender, _path, _interface, method, parameters, invocation):
        if method == "RegisterClient":
            app_id, _startup_id = parameters.unpack()
            emit(event="register", app_id=app_id)
            invocation.return_value(GLib.Variant("(o)", (f"/org/gnome/SessionManager/Client{next_cookie[0]}",)))
        elif method == "UnregisterClient":
            invocation.return_value(None)
        elif method == "Inhibit":
            app_id, xid, reason, flags = parameters.unpack()
            cookie = next_cookie[0]
            next_cookie[0] += 1
            inhibitors[cookie] = flags
            emit(event="inhibit", app_id=app_id, toplevel_xid=xid, reason=reason, flags=flags, cookie=cookie)
            invocation.return_value(GLib.Variant("(u)", (cookie,)))
        elif method == "Uninhibit":
            (cookie,) = parameters.unpack()
            known = inhibitors.pop(cookie, None) is not None
            emit(event="uninhibit", cookie=cookie, known=known)
            invocation.return_value(None)
        else:  # IsInhibited
            (flags,) = parameters.unpack()
            held = any(f & flags for f in inhibitors.values())
            invocation.return_value(GLib.Variant("(b)", (held,)))

    serve_dbus_name(GLib, Gio, "org.gnome.SessionManager", "/org/gnome/SessionManager", INTERFACE, on_call,
                    name="session_manager")
    return 0


if __name__ == "__main__":
    sys.exit(main())
