#ifndef LAYERWATCH_CGTK_SHIM_H
#define LAYERWATCH_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <adwaita.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* Macros Swift cannot import (they expand to expressions), re-exported as constants. */
static const gboolean LW_G_SOURCE_CONTINUE = G_SOURCE_CONTINUE;

/* gtk_accessible_update_property is variadic, which Swift cannot call. */
static inline void lw_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/* libdispatch's hooks for driving its main queue from a foreign run loop. swift-corelibs-libdispatch
 * exports them on Linux but declares them in no public header. The handle is an eventfd
 * (EFD_NONBLOCK) that becomes readable when main-queue work is pending; the callback drains the queue. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *_Null_unspecified msg);

#endif
