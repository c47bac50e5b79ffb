#!/usr/bin/python3
"""A desktop notification server on the session bus that records every notification it is sent.

Why it exists: Layerwatch notifies finished, failed and paused prints with GNotification, and
GLib 2.74 picks the way there when the first notification is sent: the portal in a sandbox, else
org.gtk.Notifications when that name has an owner (GNOME Shell's), else org.freedesktop.Notifications
(gnotificationbackend.c, ggtknotificationbackend.c, gfdonotificationbackend.c).  The test machine
runs no desktop, so the tests start this peer on their private bus (dbus-run-session).  It owns both
names with the real interfaces (same bus names, object paths, methods and signatures as GNOME
Shell's and the Desktop Notifications Specification's), prints every call as a JSON event, and on
request clicks a notification as the shell would: for org.gtk.Notifications it calls
org.freedesktop.Application.ActivateAction on the application's own bus name and object path (the
notification's default action, without its "app." prefix, and its target; Activate when there is
none); for org.freedesktop.Notifications it emits ActionInvoked(id, "default").

stdout: {"event":"ready"}                                     (both names are owned)
        {"event":"notification","interface":"gtk"|"freedesktop","app_id":S,"id":S,"title":S,
         "body":S|null,"priority":S,"icon":ICON|null,"default_action":S|null,"target":V|null,
         "buttons":[{"label":S,"action":S,"target":V}]}
            ICON: {"kind":"bytes","size":N,"format":"png"|"jpeg"|"other","width":W,"height":H,"file":PATH}
                  (width and height for PNG only; file with --save-icons)
                | {"kind":"themed","names":[S…]} | {"kind":"file","path":S} | {"kind":"other","text":S}
            freedesktop: app_id is the desktop-entry hint (else app_name), id the number Notify
            returned, priority from the urgency hint, default_action "default" when offered,
            and "replaces_id", "actions", "hints" (names only) besides.
        {"event":"withdrawn","interface":I,"app_id":S,"id":S}
        {"event":"done","cmd":"click","interface":I,"method":S,…}   the click reached the application
        {"event":"error","cmd":C,"message":M}
stdin:  {"cmd":"click"[,"id":S][,"app_id":S][,"button":N]}   click the newest notification (with that
                                               id, of that application; a freedesktop id is Notify's
                                               number), or its button N (0-based): the button's action
                                               and target, as the default action's are
Options: --freedesktop-only owns only org.freedesktop.Notifications (a desktop without GNOME Shell);
--body-markup lists the body-markup capability (the server reads bodies as Pango-like markup).
It exits when its stdin closes.  Needs /usr/bin/python3 with python3-gi.
"""
import argparse
import json
import os
import struct
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servercommon import emit, log  # noqa: E402

NAME = "notification_server"

GTK_XML = """
<node>
  <interface name="org.gtk.Notifications">
    <method name="AddNotification">
      <arg type="s" name="app_id" direction="in"/>
      <arg type="s" name="id" direction="in"/>
      <arg type="a{sv}" name="notification" direction="in"/>
    </method>
    <method name="RemoveNotification">
      <arg type="s" name="app_id" direction="in"/>
      <arg type="s" name="id" direction="in"/>
    </method>
  </interface>
</node>
"""

FDO_XML = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" name="app_name" direction="in"/>
      <arg type="u" name="replaces_id" direction="in"/>
      <arg type="s" name="app_icon" direction="in"/>
      <arg type="s" name="summary" direction="in"/>
      <arg type="s" name="body" direction="in"/>
      <arg type="as" name="actions" direction="in"/>
      <arg type="a{sv}" name="hints" direction="in"/>
      <arg type="i" name="expire_timeout" direction="in"/>
      <arg type="u" name="id" direction="out"/>
    </method>
    <method name="CloseNotification">
      <arg type="u" name="id" direction="in"/>
    </method>
    <method name="GetCapabilities">
      <arg type="as" name="capabilities" direction="out"/>
    </method>
    <method name="GetServerInformation">
      <arg type="s" name="name" direction="out"/>
      <arg type="s" name="vendor" direction="out"/>
      <arg type="s" name="version" direction="out"/>
      <arg type="s" name="spec_version" direction="out"/>
    </method>
    <signal name="NotificationClosed">
      <arg type="u" name="id"/>
      <arg type="u" name="reason"/>
    </signal>
    <signal name="ActionInvoked">
      <arg type="u" name="id"/>
      <arg type="s" name="action_key"/>
    </signal>
  </interface>
</node>
"""

FDO_PATH = "/org/freedesktop/Notifications"
URGENCIES = {0: "low", 1: "normal", 2: "critical"}


def plain(value):
    """A GLib.Variant (or None) as JSON-ready Python."""
    return None if value is None else value.unpack()


def describe_icon(variant, save_dir, counter):
    """The serialized GIcon `variant` (GLib's g_icon_serialize form) as an ICON object."""
    icon = Gio.Icon.deserialize(variant)
    if isinstance(icon, Gio.BytesIcon):
        data = icon.get_bytes().get_data() or b""
        described = {"kind": "bytes", "size": len(data), "format": "other"}
        if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
            width, height = struct.unpack(">II", data[16:24])
            described.update(format="png", width=width, height=height)
        elif data.startswith(b"\xff\xd8"):
            described["format"] = "jpeg"
        if save_dir:
            path = os.path.join(save_dir, f"icon-{counter}.{'png' if described['format'] == 'png' else 'bin'}")
            with open(path, "wb") as f:
                f.write(data)
            described["file"] = path
        return described
    if isinstance(icon, Gio.ThemedIcon):
        return {"kind": "themed", "names": list(icon.get_names())}
    if isinstance(icon, Gio.FileIcon):
        return {"kind": "file", "path": icon.get_file().get_path()}
    return {"kind": "other", "text": variant.print_(True)}


class Server:
    def __init__(self, bus, save_dir):
        self.bus, self.save_dir = bus, save_dir
        self.shown = {}  # (interface, app_id, id) -> what a click needs
        self.next_fdo_id = 1
        self.icons = 0
        self.capabilities = ["actions", "body"]

    # ~~ org.gtk.Notifications

    def on_gtk_call(self, _connection, _sender, _path, _interface, method, parameters, invocation):
        app_id = parameters.get_child_value(0).get_string()
        notification_id = parameters.get_child_value(1).get_string()
        if method == "RemoveNotification":
            self.shown.pop(("gtk", app_id, notification_id), None)
            emit(event="withdrawn", interface="gtk", app_id=app_id, id=notification_id)
            invocation.return_value(None)
            return
        fields = parameters.get_child_value(2)

        def field(key):
            return fields.lookup_value(key, None)

        icon = field("icon")
        self.icons += 1
        default_action, target = plain(field("default-action")), field("default-action-target")
        buttons = field("buttons")
        pressed = [(plain(b.lookup_value("action", None)), b.lookup_value("target", None))
                   for b in (buttons.get_child_value(i) for i in range(buttons.n_children() if buttons is not None else 0))]
        self.remember(("gtk", app_id, notification_id), {"action": default_action, "target": target, "buttons": pressed})
        emit(event="notification", interface="gtk", app_id=app_id, id=notification_id,
             title=plain(field("title")), body=plain(field("body")), priority=plain(field("priority")) or "normal",
             icon=describe_icon(icon, self.save_dir, self.icons) if icon is not None else None,
             default_action=default_action, target=plain(target),
             buttons=[{"label": b.get("label"), "action": b.get("action"), "target": b.get("target")}
                      for b in (buttons.unpack() if buttons is not None else [])])
        invocation.return_value(None)

    def click_gtk(self, app_id, shown, button):
        """What GNOME Shell does with a click: the default action (or button `button`'s) through the
        application's org.freedesktop.Application interface, on its bus name and the path made from
        its id."""
        path = "/" + app_id.replace(".", "/").replace("-", "_")
        action, target = shown["action"], shown["target"]
        if button is not None:
            if not 0 <= button < len(shown["buttons"]):
                raise ValueError(f"the notification has no button {button}")
            action, target = shown["buttons"][button]
        if action and action.startswith("app."):
            method = "ActivateAction"
            arguments = GLib.Variant("(sava{sv})", (action[len("app."):], [target] if target is not None else [], {}))
        else:
            method, arguments = "Activate", GLib.Variant("(a{sv})", ({},))

        def answered(bus, result):
            try:
                bus.call_finish(result)
            except GLib.Error as error:
                emit(event="error", cmd="click", message=error.message)
                return
            emit(event="done", cmd="click", interface="gtk", method=method, app_id=app_id, path=path,
                 action=action, target=plain(target))

        self.bus.call(app_id, path, "org.freedesktop.Application", method, arguments, None,
                      Gio.DBusCallFlags.NONE, 10000, None, answered)

    # ~~ org.freedesktop.Notifications

    def on_fdo_call(self, _connection, sender, _path, _interface, method, parameters, invocation):
        if method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (self.capabilities,)))
        elif method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("layerwatch-test", "Layerwatch tests", "1", "1.2")))
        elif method == "CloseNotification":
            (number,) = parameters.unpack()
            for key in [k for k in self.shown if k[0] == "freedesktop" and k[2] == str(number)]:
                self.shown.pop(key)
                emit(event="withdrawn", interface="freedesktop", app_id=key[1], id=key[2])
            invocation.return_value(None)
            self.bus.emit_signal(None, FDO_PATH, "org.freedesktop.Notifications", "NotificationClosed",
                                 GLib.Variant("(uu)", (number, 3)))
        else:  # Notify
            app_name, replaces, app_icon, summary, body, actions, hints, _timeout = parameters.unpack()
            number = replaces or self.next_fdo_id
            self.next_fdo_id = max(self.next_fdo_id, number + 1)
            entry = hints.get("desktop-entry") or app_name
            icon = hints.get("image-path") or app_icon
            keys = actions[0::2]
            self.remember(("freedesktop", entry, str(number)),
                          {"sender": sender, "number": number, "buttons": [k for k in keys if k != "default"]})
            emit(event="notification", interface="freedesktop", app_id=entry, id=str(number), title=summary,
                 body=body or None, priority=URGENCIES.get(hints.get("urgency"), "normal"),
                 icon=({"kind": "file", "path": icon} if icon.startswith("/") else {"kind": "themed", "names": [icon]})
                 if icon else None,
                 default_action="default" if "default" in keys else None, target=None,
                 buttons=[{"label": label, "action": key, "target": None}
                          for key, label in zip(actions[0::2], actions[1::2]) if key != "default"],
                 replaces_id=replaces, actions=actions, hints=sorted(hints))
            invocation.return_value(GLib.Variant("(u)", (number,)))

    def click_fdo(self, app_id, shown, button):
        if button is not None and not 0 <= button < len(shown["buttons"]):
            raise ValueError(f"the notification has no button {button}")
        key = "default" if button is None else shown["buttons"][button]
        self.bus.emit_signal(shown["sender"], FDO_PATH, "org.freedesktop.Notifications", "ActionInvoked",
                             GLib.Variant("(us)", (shown["number"], key)))
        emit(event="done", cmd="click", interface="freedesktop", method="ActionInvoked", app_id=app_id,
             id=str(shown["number"]), action=key)

    # ~~ commands

    def remember(self, key, shown):
        """Keeps what a click on notification `key` needs; the newest last."""
        self.shown.pop(key, None)
        self.shown[key] = shown

    def command(self, command):
        if command.get("cmd") != "click":
            raise ValueError(f"unknown command {command.get('cmd')!r}")
        wanted_id, wanted_app = command.get("id"), command.get("app_id")
        matches = [key for key in self.shown if wanted_id in (None, key[2]) and wanted_app in (None, key[1])]
        if not matches:
            raise ValueError(f"no notification {wanted_id!r} of {wanted_app!r} is shown")
        interface, app_id, _ = matches[-1]
        button = command.get("button")
        if button is not None and not isinstance(button, int):
            raise ValueError("button is a number")
        (self.click_gtk if interface == "gtk" else self.click_fdo)(app_id, self.shown[matches[-1]], button)


def read_commands(loop, server):
    """Runs one JSON command per stdin line; quits `loop` at EOF."""
    pending = [b""]

    def on_stdin(fd, _condition):
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            log(NAME, "stdin closed, exiting")
            loop.quit()
            return GLib.SOURCE_REMOVE
        *lines, pending[0] = (pending[0] + chunk).split(b"\n")
        for line in lines:
            text = line.decode("utf-8", "replace").strip()
            try:
                command = json.loads(text) if text else None
            except ValueError:
                command = None
            if not isinstance(command, dict):
                if text:
                    log(NAME, f"ignoring a stdin line that is not a JSON object: {text[:200]!r}")
                continue
            try:
                server.command(command)
            except (ValueError, GLib.Error) as error:
                emit(event="error", cmd=command.get("cmd"), message=str(error))
        return GLib.SOURCE_CONTINUE

    GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, sys.stdin.fileno(),
                          GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR, on_stdin)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save-icons", metavar="DIR", help="write every bytes icon to DIR/icon-N.png")
    parser.add_argument("--freedesktop-only", action="store_true", help="own only org.freedesktop.Notifications")
    parser.add_argument("--body-markup", action="store_true", help="list the body-markup capability")
    args = parser.parse_args()
    loop = GLib.MainLoop()
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    server = Server(bus, args.save_icons)
    server.capabilities += ["body-markup"] if args.body_markup else []
    names = ("org.freedesktop.Notifications",) if args.freedesktop_only else ("org.gtk.Notifications", "org.freedesktop.Notifications")
    for xml, path, method_call in ((GTK_XML, "/org/gtk/Notifications", server.on_gtk_call),
                                   (FDO_XML, FDO_PATH, server.on_fdo_call)):
        bus.register_object(path, Gio.DBusNodeInfo.new_for_xml(xml).interfaces[0], method_call, None, None)
    owned = set()

    def on_acquired(_bus, name):
        owned.add(name)
        if len(owned) == len(names):
            emit(event="ready")

    def on_lost(_bus, name):
        log(NAME, f"cannot own {name}")
        loop.quit()

    for name in names:
        Gio.bus_own_name_on_connection(bus, name, Gio.BusNameOwnerFlags.NONE, on_acquired, on_lost)
    for sig in (2, 15):  # SIGINT, SIGTERM
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, sig, lambda *_: loop.quit() or GLib.SOURCE_REMOVE)
    read_commands(loop, server)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
