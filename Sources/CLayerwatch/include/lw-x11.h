#ifndef LW_X11_H
#define LW_X11_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What GTK 4 cannot do for a window on X11, through Xlib. On other displays the checks answer FALSE
 * and the requests do nothing. */

/* GDK_IS_X11_* are type-check macros, which Swift cannot import. */
gboolean lw_display_is_x11(GdkDisplay *display);
gboolean lw_surface_is_x11(GdkSurface *surface);

/* Asks the window manager (EWMH) to add or remove _NET_WM_STATE_ABOVE for a mapped window: a client
 * message to the root window, the only way a GTK 4 app can keep a window on top on X11. */
void lw_x11_set_keep_above(GdkSurface *surface, gboolean above);

/* Asks the window manager to keep a window's aspect ratio while the user resizes it (ICCCM
 * WM_NORMAL_HINTS). GTK 4 has no API for it. */
void lw_x11_set_aspect(GdkSurface *surface, int width, int height);

/* Where a mapped window's top-left corner is on the screen (XTranslateCoordinates to the root
 * window): the client area's, without the window manager's frame. FALSE where it cannot be read. */
gboolean lw_x11_get_position(GdkSurface *surface, int *x, int *y);

/* Asks the window manager to put a window's top-left corner at `x`, `y` on the screen, as
 * `lw_x11_get_position` reads it (ICCCM StaticGravity: the client area's corner, not the frame's).
 * GTK 4 has no API for it: on X11 the app may ask, on Wayland positions are the compositor's. */
void lw_x11_move(GdkSurface *surface, int x, int y);

/* Keeps GDK 4.8 from aborting when another client destroys one of the app's X windows
 * (XDestroyWindow, `xdotool windowclose`): a window is closed as the user closing it would, GDK's
 * hidden leader window is left to GDK, and requests on a window gone this way no longer end the
 * program (lw-x11-foreign-destroy.c says why and how). Call once, with the display open. */
void lw_x11_survive_foreign_destroy(GdkDisplay *display);

G_END_DECLS

#endif
