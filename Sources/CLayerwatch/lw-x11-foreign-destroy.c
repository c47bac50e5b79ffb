#include "lw-x11.h"
#include "lw-glib-calls.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/Xlibint.h>

/* GDK 4.8's X11 backend gives every surface it makes its X window as the surface's "EGL native
 * window", whether anything draws with GL or not, and clears it only when GDK destroys the window
 * itself. A window another client destroys (XDestroyWindow: `xdotool windowclose`) reaches GDK as
 * a DestroyNotify, GDK destroys its surface as "foreign", skips the clearing, and aborts on its own
 * assertion (gdksurface.c, `priv->egl_native_window == NULL`): so any GTK 4.8 window, drawn with
 * cairo or GL. Layerwatch sees the DestroyNotify first (the display's `xevent` signal runs before
 * GDK's own handling):
 * - a surface a widget owns (a window, a popover) is closed GDK's way, as the user closing it:
 *   the window's close-request (the app's own path: to the background, or quit), or hidden and
 *   unrealized if it stays. GDK then finds the surface destroyed already and only forgets it;
 * - a surface no widget owns (GDK's hidden client-leader window, 1×1 at −100,−100, which carries
 *   the program's name and is what `xdotool search --name Layerwatch` finds first) stays GDK's:
 *   its DestroyNotify is dropped, so GDK keeps it as it was.
 * Requests on a window gone this way fail, and an X error nobody traps ends a GTK program (exit 1):
 * GDK reads a window's geometry as it lays it out, between the destruction and the DestroyNotify's
 * turn, and sets the leader's startup id at every launch. So BadWindow and BadDrawable errors about
 * a window GDK still has a live surface for, or one gone this way, are dropped before GDK's error
 * handler sees them (Xlib's per-display conversion of an error code, which GDK's error traps leave
 * alone). A frame being drawn as the window goes makes more: cairo's back buffer, a pixmap made on
 * the dead window, fails (BadDrawable), and freeing it, its GC and its RENDER picture fails again
 * (BadPixmap, BadGC, BadPicture). Those three kinds are dropped for LW_GONE_AFTERMATH after a window
 * went this way: freeing what does not exist changes nothing. */

#define LW_GONE_MAX 64
/* How long after a window went the errors of freeing what was made on it are dropped (µs). */
#define LW_GONE_AFTERMATH (5 * G_USEC_PER_SEC)

/* The X windows destroyed from outside so far (the newest LW_GONE_MAX). */
static XID lw_gone[LW_GONE_MAX];
static guint lw_gone_count;
/* When the last of them went (g_get_monotonic_time), 0 before any. */
static gint64 lw_gone_at;

static gboolean lw_is_gone(XID window) {
    for (guint i = 0; i < MIN(lw_gone_count, LW_GONE_MAX); i++)
        if (lw_gone[i] == window) return TRUE;
    return FALSE;
}

/* The error converters (Xlib's wire-to-error procedures) in place before ours, by error code. */
static Bool (*lw_previous_converter[256])(Display *, XErrorEvent *, xError *);

/* Xlib's wire-to-error procedure for BadWindow and BadDrawable, which every error of those codes
 * passes, whether a reply was awaited or not: FALSE drops the error. Dropped: a window gone this
 * way, or one GDK still has a surface for: destroyed from outside, its DestroyNotify still on its
 * way (GDK asks a window's geometry as it lays it out). Called with Xlib's display lock held: no
 * request may be made here. */
static Bool lw_convert_error(Display *xdisplay, XErrorEvent *host, xError *wire) {
    if (wire->errorCode == BadWindow || wire->errorCode == BadDrawable) {
        GdkDisplay *display = gdk_x11_lookup_xdisplay(xdisplay);
        GdkSurface *surface = display ? gdk_x11_surface_lookup_for_display(display, host->resourceid) : NULL;
        if (lw_is_gone(host->resourceid) || (surface != NULL && !gdk_surface_is_destroyed(surface))) return False;
    } else if (lw_gone_at != 0 && g_get_monotonic_time() - lw_gone_at < LW_GONE_AFTERMATH) {
        return False;  /* BadPixmap, BadGC or BadPicture: what was made on a window that went */
    }
    return lw_previous_converter[wire->errorCode](xdisplay, host, wire);
}

/* Xlib's wire-to-event procedure in place before ours for DestroyNotify. */
static Bool (*lw_previous_event_converter)(Display *, XEvent *, xEvent *);

/* Xlib's wire-to-event procedure for DestroyNotify: a window of GDK's not destroyed by GDK is noted
 * as gone here, as the event is read, not when GDK's queue gets to it: the errors of what was drawn
 * on it, which the server sends after the event, may be read (and converted) first. Called with
 * Xlib's display lock held: no request may be made here. */
static Bool lw_convert_event(Display *xdisplay, XEvent *host, xEvent *wire) {
    Bool kept = lw_previous_event_converter(xdisplay, host, wire);
    if (!kept || host->xdestroywindow.window != host->xdestroywindow.event) return kept;
    Window window = host->xdestroywindow.window;
    GdkDisplay *display = gdk_x11_lookup_xdisplay(xdisplay);
    GdkSurface *surface = display ? gdk_x11_surface_lookup_for_display(display, window) : NULL;
    if (surface != NULL && !gdk_surface_is_destroyed(surface) && !lw_is_gone(window)) {
        lw_gone[lw_gone_count++ % LW_GONE_MAX] = window;
        lw_gone_at = g_get_monotonic_time();
    }
    return kept;
}

/* Puts `lw_convert_error` before Xlib's converter for `code`. */
static void lw_convert(Display *xdisplay, int code) {
    lw_previous_converter[code] = XESetWireToError(xdisplay, code, lw_convert_error);
}

static gboolean lw_on_xevent(GdkDisplay *display, const XEvent *xevent, gpointer data) {
    (void)data;
    /* The window's own notification, not its parent's (SubstructureNotify) of a child. */
    if (xevent->type != DestroyNotify || xevent->xdestroywindow.window != xevent->xdestroywindow.event) return FALSE;
    Window window = xevent->xdestroywindow.window;
    GdkSurface *surface = gdk_x11_surface_lookup_for_display(display, window);
    if (surface == NULL || gdk_surface_is_destroyed(surface)) return FALSE;  /* GDK's own, or none of its */
    GtkNative *native = gtk_native_get_for_surface(surface);
    if (native == NULL) {
        lw_log(G_LOG_LEVEL_DEBUG, "GDK's hidden leader window was destroyed by another program; left as it was");
        return TRUE;
    }
    lw_log(G_LOG_LEVEL_WARNING, "another program destroyed a window of Layerwatch; it closes as its close button would close it");
    g_object_ref(surface);
    g_object_ref(native);
    gdk_x11_display_error_trap_push(display);
    if (GTK_IS_WINDOW(native)) gtk_window_close(GTK_WINDOW(native));
    if (!gdk_surface_is_destroyed(surface)) {
        gtk_widget_set_visible(GTK_WIDGET(native), FALSE);
        gtk_widget_unrealize(GTK_WIDGET(native));
    }
    gdk_x11_display_error_trap_pop_ignored(display);
    g_object_unref(native);
    g_object_unref(surface);
    return FALSE;
}

void lw_x11_survive_foreign_destroy(GdkDisplay *display) {
    /* Once per display (an application started again in the same process, as tests do, asks again). */
    if (!GDK_IS_X11_DISPLAY(display) || g_object_get_data(G_OBJECT(display), "lw-survives-foreign-destroy")) return;
    g_object_set_data(G_OBJECT(display), "lw-survives-foreign-destroy", GINT_TO_POINTER(1));
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    lw_previous_event_converter = XESetWireToEvent(xdisplay, DestroyNotify, lw_convert_event);
    lw_convert(xdisplay, BadWindow);
    lw_convert(xdisplay, BadDrawable);
    lw_convert(xdisplay, BadPixmap);
    lw_convert(xdisplay, BadGC);
    int opcode, event, error;
    if (XQueryExtension(xdisplay, "RENDER", &opcode, &event, &error)) {
        lw_convert(xdisplay, error + 1);  /* BadPicture: RENDER's second error */
    }
    g_signal_connect(display, "xevent", G_CALLBACK(lw_on_xevent), NULL);
}

#else

void lw_x11_survive_foreign_destroy(GdkDisplay *display) { (void)display; }

#endif
