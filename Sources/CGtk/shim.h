#ifndef LAYERWATCH_CGTK_SHIM_H
#define LAYERWATCH_CGTK_SHIM_H

/* The GTK, GLib and libadwaita headers Swift imports, nothing else: Layerwatch's own C (X11 calls,
 * wrappers for variadic functions and macros) lives in the CLayerwatch target. */
#include <gtk/gtk.h>
#include <glib-unix.h>
#include <adwaita.h>
/* GSettings backends: the desktop clock's settings on a memory backend in tests. */
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#endif
