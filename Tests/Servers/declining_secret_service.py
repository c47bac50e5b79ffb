#!/usr/bin/python3
"""A Secret Service (org.freedesktop.secrets) that declines to keep secrets, or keeps them.

Why it exists: a keyring can answer and still not take a secret — the user cancels gnome-keyring's
"Choose password for new keyring" prompt, or the default keyring is locked — and Layerwatch must
learn that from the store call itself and tell the user where the secret went. This peer owns
org.freedesktop.secrets on the session bus it is started on (a test's private dbus-run-session) and
answers libsecret as gnome-keyring does, in one of three modes (--mode, and the stdin command
{"cmd":"mode","mode":M}, answered {"event":"done"}: the same bus name and owner throughout, as
libsecret keeps the owner it first met for the whole process):

  dismiss   there is no default keyring: ReadAlias("default") is "/", CreateCollection answers with
            a prompt, and the prompt completes dismissed (the user pressed Cancel).
  locked    the default keyring is there but locked: CreateItem fails with Secret.Error.IsLocked.
  accept    the default keyring is unlocked: items are created, found, read and deleted (in memory).

stdout: {"event":"ready"}                      (the bus name is owned)
        {"event":"call","method":S}             (every Service, Collection, Item and Prompt call)
        {"event":"dismissed"}                   (a prompt completed dismissed)
        {"event":"stored","label":S,"attributes":{…}}  (accept: an item kept; never its secret)
        {"event":"deleted","attributes":{…}}
It exits when its stdin closes.  Needs /usr/bin/python3 with python3-gi.
"""
import argparse
import json
import os
import signal
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import emit, log  # noqa: E402

ROOT = "/org/freedesktop/secrets"
COLLECTION = ROOT + "/collection/login"
ALIAS = ROOT + "/aliases/default"  # where libsecret creates items in the default keyring
PROMPT = ROOT + "/prompt/p1"
SESSION = ROOT + "/session/s1"

INTERFACES = """
<node>
  <interface name="org.freedesktop.Secret.Service">
    <method name="OpenSession">
      <arg type="s" name="algorithm" direction="in"/><arg type="v" name="input" direction="in"/>
      <arg type="v" name="output" direction="out"/><arg type="o" name="result" direction="out"/>
    </method>
    <method name="CreateCollection">
      <arg type="a{sv}" name="properties" direction="in"/><arg type="s" name="alias" direction="in"/>
      <arg type="o" name="collection" direction="out"/><arg type="o" name="prompt" direction="out"/>
    </method>
    <method name="SearchItems">
      <arg type="a{ss}" name="attributes" direction="in"/>
      <arg type="ao" name="unlocked" direction="out"/><arg type="ao" name="locked" direction="out"/>
    </method>
    <method name="Unlock">
      <arg type="ao" name="objects" direction="in"/>
      <arg type="ao" name="unlocked" direction="out"/><arg type="o" name="prompt" direction="out"/>
    </method>
    <method name="GetSecrets">
      <arg type="ao" name="items" direction="in"/><arg type="o" name="session" direction="in"/>
      <arg type="a{o(oayays)}" name="secrets" direction="out"/>
    </method>
    <method name="ReadAlias">
      <arg type="s" name="name" direction="in"/><arg type="o" name="collection" direction="out"/>
    </method>
    <property name="Collections" type="ao" access="read"/>
  </interface>
  <interface name="org.freedesktop.Secret.Collection">
    <method name="CreateItem">
      <arg type="a{sv}" name="properties" direction="in"/><arg type="(oayays)" name="secret" direction="in"/>
      <arg type="b" name="replace" direction="in"/>
      <arg type="o" name="item" direction="out"/><arg type="o" name="prompt" direction="out"/>
    </method>
    <property name="Locked" type="b" access="read"/>
    <property name="Label" type="s" access="read"/>
  </interface>
  <interface name="org.freedesktop.Secret.Item">
    <method name="Delete"><arg type="o" name="prompt" direction="out"/></method>
  </interface>
  <interface name="org.freedesktop.Secret.Prompt">
    <method name="Prompt"><arg type="s" name="window-id" direction="in"/></method>
    <method name="Dismiss"/>
    <signal name="Completed"><arg type="b" name="dismissed"/><arg type="v" name="result"/></signal>
  </interface>
</node>
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["dismiss", "locked", "accept"], required=True)
    state = {"mode": parser.parse_args().mode}
    items = {}  # accept: path -> (attributes, secret bytes)
    registrations = {}  # accept: path -> the item's registration id (for Delete)
    loop = GLib.MainLoop()
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    node = Gio.DBusNodeInfo.new_for_xml(INTERFACES)

    def search(attributes):
        return [path for path, (held, _) in items.items() if all(held.get(k) == v for k, v in attributes.items())]

    def on_call(connection, _sender, path, _interface, method, parameters, invocation):
        emit(event="call", method=method)
        args = parameters.unpack()
        if method == "OpenSession" and args[0] != "plain":
            # libsecret asks for the encrypted session first and falls back to plain on this error.
            invocation.return_dbus_error("org.freedesktop.DBus.Error.NotSupported", "plain only")
        elif method == "OpenSession":
            invocation.return_value(GLib.Variant("(vo)", (GLib.Variant("s", ""), SESSION)))
        elif method == "ReadAlias":
            invocation.return_value(GLib.Variant("(o)", (COLLECTION if state["mode"] != "dismiss" else "/",)))
        elif method == "CreateCollection":
            invocation.return_value(GLib.Variant("(oo)", ("/", PROMPT)))
        elif method == "Prompt":
            invocation.return_value(None)
            emit(event="dismissed")
            connection.emit_signal(None, PROMPT, "org.freedesktop.Secret.Prompt", "Completed",
                                   GLib.Variant("(bv)", (True, GLib.Variant("o", "/"))))
        elif method == "Dismiss":
            invocation.return_value(None)
        elif method == "CreateItem" and state["mode"] == "locked":
            invocation.return_dbus_error("org.freedesktop.Secret.Error.IsLocked", "Cannot create an item in a locked collection")
        elif method == "CreateItem":
            properties, (_session, _params, value, _type), _replace = args
            attributes = properties.get("org.freedesktop.Secret.Item.Attributes", {})
            for old in search(attributes):
                del items[old]
            item = f"{COLLECTION}/i{len(items) + 1}{os.urandom(4).hex()}"
            items[item] = (attributes, bytes(value))
            registrations[item] = connection.register_object(item, node.interfaces[2], on_call, None, None)
            emit(event="stored", label=properties.get("org.freedesktop.Secret.Item.Label", ""), attributes=attributes)
            invocation.return_value(GLib.Variant("(oo)", (item, "/")))
        elif method == "SearchItems":
            invocation.return_value(GLib.Variant("(aoao)", (search(args[0]), [])))
        elif method == "Unlock":
            # locked: nothing unlocks (no prompt to answer); accept: all is unlocked already.
            invocation.return_value(GLib.Variant("(aoo)", ([] if state["mode"] == "locked" else args[0], "/")))
        elif method == "GetSecrets":
            found = {item: (SESSION, b"", items[item][1], "text/plain") for item in args[0] if item in items}
            invocation.return_value(GLib.Variant("(a{o(oayays)})", (found,)))
        elif method == "Delete":
            attributes, _ = items.pop(path, ({}, None))
            connection.unregister_object(registrations.pop(path))
            emit(event="deleted", attributes=attributes)
            invocation.return_value(GLib.Variant("(o)", ("/",)))
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    def on_property(_connection, _sender, path, _interface, name):
        if name == "Collections":
            return GLib.Variant("ao", [] if state["mode"] == "dismiss" else [COLLECTION])
        if name == "Locked":
            return GLib.Variant("b", state["mode"] == "locked")
        return GLib.Variant("s", "Login")

    bus.register_object(ROOT, node.interfaces[0], on_call, on_property, None)
    bus.register_object(PROMPT, node.interfaces[3], on_call, None, None)
    collections = []  # registration ids of the default keyring, there unless in dismiss mode

    def set_mode(mode):
        state["mode"] = mode
        while collections:
            bus.unregister_object(collections.pop())
        if mode != "dismiss":
            collections.extend(bus.register_object(path, node.interfaces[1], on_call, on_property, None) for path in (COLLECTION, ALIAS))

    set_mode(state["mode"])
    pending = [b""]

    def on_stdin(fd, _cond):
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:
            log("declining_secret_service", "stdin closed, exiting")
            loop.quit()
            return GLib.SOURCE_REMOVE
        *lines, pending[0] = (pending[0] + data).split(b"\n")
        for line in lines:
            command = json.loads(line) if line.strip() else {}
            if command.get("cmd") == "mode":
                set_mode(command["mode"])
                emit(event="done", cmd="mode", mode=command["mode"])
        return GLib.SOURCE_CONTINUE

    GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, sys.stdin.fileno(), GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR,
                          on_stdin)
    for sig in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, sig, lambda *_: loop.quit() or GLib.SOURCE_REMOVE)

    def on_lost(*_):
        log("declining_secret_service", "cannot own org.freedesktop.secrets")
        loop.quit()

    Gio.bus_own_name_on_connection(bus, "org.freedesktop.secrets", Gio.BusNameOwnerFlags.NONE,
                                   lambda *_: emit(event="ready"), on_lost)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
