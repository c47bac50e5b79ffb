#include "lw-x11.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/Xutil.h>

gboolean lw_display_is_x11(GdkDisplay *display) {
    return GDK_IS_X11_DISPLAY(display);
}

gboolean lw_surface_is_x11(GdkSurface *surface) {
    return GDK_IS_X11_SURFACE(surface);
}

void lw_x11_set_keep_above(GdkSurface *surface, gboolean above) {
    g_return_if_fail(GDK_IS_X11_SURFACE(surface));
    Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    XEvent event = {0};
    event.xclient.type = ClientMessage;
    event.xclient.window = gdk_x11_surface_get_xid(surface);
    event.xclient.message_type = XInternAtom(display, "_NET_WM_STATE", False);
    event.xclient.format = 32;
    event.xclient.data.l[0] = above ? 1 /* _NET_WM_STATE_ADD */ : 0 /* _NET_WM_STATE_REMOVE */;
    event.xclient.data.l[1] = (long)XInternAtom(display, "_NET_WM_STATE_ABOVE", False);
    event.xclient.data.l[2] = 0;
    event.xclient.data.l[3] = 1; /* source indication: a normal application */
    XSendEvent(display, DefaultRootWindow(display), False, SubstructureRedirectMask | SubstructureNotifyMask, &event);
    XFlush(display);
}

/* The window's WM_NORMAL_HINTS as set so far (free with XFree), to add to. */
static XSizeHints *lw_x11_normal_hints(Display *display, Window xid) {
    XSizeHints *hints = XAllocSizeHints();
    long supplied = 0;
    XGetWMNormalHints(display, xid, hints, &supplied);
    return hints;
}

void lw_x11_set_aspect(GdkSurface *surface, int width, int height) {
    g_return_if_fail(GDK_IS_X11_SURFACE(surface));
    Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    Window xid = gdk_x11_surface_get_xid(surface);
    XSizeHints *hints = lw_x11_normal_hints(display, xid);
    hints->flags |= PAspect;
    hints->min_aspect.x = hints->max_aspect.x = width;
    hints->min_aspect.y = hints->max_aspect.y = height;
    XSetWMNormalHints(display, xid, hints);
    XFree(hints);
    XFlush(display);
}

gboolean lw_x11_get_position(GdkSurface *surface, int *x, int *y) {
    g_return_val_if_fail(GDK_IS_X11_SURFACE(surface), FALSE);
    Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    Window child;
    return XTranslateCoordinates(display, gdk_x11_surface_get_xid(surface), DefaultRootWindow(display), 0, 0, x, y, &child)
        ? TRUE : FALSE;
}

void lw_x11_move(GdkSurface *surface, int x, int y) {
    g_return_if_fail(GDK_IS_X11_SURFACE(surface));
    Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
    Window xid = gdk_x11_surface_get_xid(surface);
    XSizeHints *hints = lw_x11_normal_hints(display, xid);
    hints->flags |= PWinGravity | USPosition;
    hints->win_gravity = StaticGravity;
    hints->x = x;
    hints->y = y;
    XSetWMNormalHints(display, xid, hints);
    XFree(hints);
    XMoveWindow(display, xid, x, y);
    XFlush(display);
}

#else

gboolean lw_display_is_x11(GdkDisplay *display) { (void)display; return FALSE; }
gboolean lw_surface_is_x11(GdkSurface *surface) { (void)surface; return FALSE; }
void lw_x11_set_keep_above(GdkSurface *surface, gboolean above) { (void)surface; (void)above; }
/* The window's WM_NORMAL_HINTS as set so far (free with XFree), to add to. */
static XSizeHints *lw_x11_normal_hints(Display *display, Window xid) {
    XSizeHints *hints = XAllocSizeHints();
    long supplied = 0;
    XGetWMNormalHints(display, xid, hints, &supplied);
    return hints;
}

void lw_x11_set_aspect(GdkSurface *surface, int width, int height) { (void)surface; (void)width; (void)height; }
gboolean lw_x11_get_position(GdkSurface *surface, int *x, int *y) { (void)surface; (void)x; (void)y; return FALSE; }
void lw_x11_move(GdkSurface *surface, int x, int y) { (void)surface; (void)x; (void)y; }

#endif
