#ifndef LAYERWATCH_CGTK_SHIM_H
#define LAYERWATCH_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <adwaita.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/Xutil.h>

/* GDK_IS_X11_* are type-check macros, which Swift cannot import. */
static inline gboolean lw_surface_is_x11(GdkSurface *surface) {
    return GDK_IS_X11_SURFACE(surface);
}

static inline gboolean lw_display_is_x11(GdkDisplay *display) {
    return GDK_IS_X11_DISPLAY(display);
}

/* Asks the window manager (EWMH) to add or remove _NET_WM_STATE_ABOVE for a mapped window: a
 * client message to the root window, the only way GTK 4 apps can keep a window on top on X11. */
static inline void lw_x11_set_keep_above(GdkSurface *surface, gboolean above) {
    Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    Window xid = gdk_x11_surface_get_xid(surface);
    XEvent event = {0};
    event.xclient.type = ClientMessage;
    event.xclient.window = xid;
    event.xclient.message_type = XInternAtom(display, "_NET_WM_STATE", False);
    event.xclient.format = 32;
    event.xclient.data.l[0] = above ? 1 /* _NET_WM_STATE_ADD */ : 0 /* _NET_WM_STATE_REMOVE */;
    event.xclient.data.l[1] = (long)XInternAtom(display, "_NET_WM_STATE_ABOVE", False);
    event.xclient.data.l[2] = 0;
    event.xclient.data.l[3] = 1; /* source indication: a normal application */
    XSendEvent(display, DefaultRootWindow(display), False,
               SubstructureRedirectMask | SubstructureNotifyMask, &event);
    XFlush(display);
}

/* Asks the window manager to keep a window's aspect ratio while the user resizes it (ICCCM
 * WM_NORMAL_HINTS). GTK 4 has no API for it. */
static inline void lw_x11_set_aspect(GdkSurface *surface, int width, int height) {
    Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    Window xid = gdk_x11_surface_get_xid(surface);
    XSizeHints *hints = XAllocSizeHints();
    long supplied = 0;
    XGetWMNormalHints(display, xid, hints, &supplied);
    hints->flags |= PAspect;
    hints->min_aspect.x = hints->max_aspect.x = width;
    hints->min_aspect.y = hints->max_aspect.y = height;
    XSetWMNormalHints(display, xid, hints);
    XFree(hints);
    XFlush(display);
}
#endif

/* Macros Swift cannot import (they expand to expressions), re-exported as constants. */
static const gboolean LW_G_SOURCE_CONTINUE = G_SOURCE_CONTINUE;

/* gtk_accessible_update_property is variadic, which Swift cannot call. */
static inline void lw_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/* gtk_accessible_update_relation is variadic too. */
static inline void lw_accessible_set_labelled_by(GtkWidget *widget, GtkWidget *label) {
    gtk_accessible_update_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
}

/* g_object_set is variadic: one string property at a time. */
static inline void lw_set_string_property(gpointer object, const char *name, const char *value) {
    g_object_set(object, name, value, NULL);
}

/* g_log_structured is variadic: one message under the Layerwatch domain. */
static inline void lw_log(GLogLevelFlags level, const char *message) {
    g_log_structured("Layerwatch", level, "MESSAGE", "%s", message);
}

/* libdispatch's hooks for driving its main queue from a foreign run loop. swift-corelibs-libdispatch
 * exports them on Linux but declares them in no public header. The handle is an eventfd
 * (EFD_NONBLOCK) that becomes readable when main-queue work is pending; the callback drains the queue. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *_Null_unspecified msg);

#endif
