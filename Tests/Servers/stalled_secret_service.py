#!/usr/bin/python3
"""A Secret Service (org.freedesktop.secrets) that opens sessions and then never answers.

Why it exists: a real keyring can hang a client for as long as it likes — gnome-keyring asking
the user to create or unlock a keyring waits for a click that may never come.  This peer owns
org.freedesktop.secrets on the session bus it is started on (a test's private dbus-run-session),
answers what libsecret needs to connect (the Collections property and OpenSession with the
"plain" algorithm), and holds every other call (SearchItems, ReadAlias, CreateCollection…)
unanswered, so the tests can check that Layerwatch's window stays responsive and that quitting
waits only a bounded time.

stdout: {"event":"ready"}                      (the bus name is owned)
        {"event":"open-session"}
        {"event":"stalled","method":S}          (a call held unanswered)
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
  <interface name="org.freedesktop.Secret.Service">
    <method name="OpenSession">
      <arg type="s" name="algorithm" direction="in"/>
      <arg type="v" name="input" direction="in"/>
      <arg type="v" name="output" direction="out"/>
      <arg type="o" name="result" direction="out"/>
    </method>
    <method name="CreateCollection">
      <arg type="a{sv}" name="properties" direction="in"/>
      <arg type="s" name="alias" direction="in"/>
      <arg type="o" name="collection" direction="out"/>
      <arg type="o" name="prompt" direction="out"/>
    </method>
    <method name="SearchItems">
      <arg type="a{ss}" name="attributes" direction="in"/>
      <arg type="ao" name="unlocked" direction="out"/>
      <arg type="ao" name="locked" direction="out"/>
    </method>
    <method name="Unlock">
      <arg type="ao" name="objects" direction="in"/>
      <arg type="ao" name="unlocked" direction="out"/>
      <arg type="o" name="prompt" direction="out"/>
    </method>
    <method name="GetSecrets">
      <arg type="ao" name="items" direction="in"/>
      <arg type="o" name="session" direction="in"/>
      <arg type="a{o(oayays)}" name="secrets" direction="out"/>
    </method>
    <method name="ReadAlias">
      <arg type="s" name="name" direction="in"/>
      <arg type="o" name="collection" direction="out"/>
    </method>
    <method name="SetAlias">
      <arg type="s" name="name" direction="in"/>
      <arg type="o" name="collection" direction="in"/>
    </method>
    <property name="Collections" type="ao" access="read"/>
  </interface>
</node>
"""


def main():
    held = []  # invocations never answered (kept so GDBus does not reply on its own)

    def on_call(_connection, _sender, _path, _interface, method, parameters, invocation):
        if method == "OpenSession" and parameters.unpack()[0] != "plain":
            # libsecret asks for the encrypted session first and falls back to plain on this error.
            invocation.return_dbus_error("org.freedesktop.DBus.Error.NotSupported", "plain only")
        elif method == "OpenSession":
            emit(event="open-session")
            invocation.return_value(GLib.Variant("(vo)", (GLib.Variant("s", ""), "/org/freedesktop/secrets/session/s1")))
        else:
            held.append(invocation)
            emit(event="stalled", method=method)

    def on_property(_connection, _sender, _path, _interface, _name):
        return GLib.Variant("ao", [])

    serve_dbus_name(GLib, Gio, "org.freedesktop.secrets", "/org/freedesktop/secrets", INTERFACE, on_call, on_property,
                    name="stalled_secret_service")
    return 0


if __name__ == "__main__":
    sys.exit(main())
