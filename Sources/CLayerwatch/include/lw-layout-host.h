#ifndef LW_LAYOUT_HOST_H
#define LW_LAYOUT_HOST_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A widget whose only job is to carry a layout manager and the children it places. GTK lets a
 * widget own children only through gtk_widget_set_parent, and only a real subclass can unparent
 * them when it goes away, so this is the smallest such subclass: GtkKit's AdaptiveLayout installs
 * its layout manager on it and parents its children into it. Disposing it unparents its children.
 * CSS name: "layout-host". */
#define LW_TYPE_LAYOUT_HOST (lw_layout_host_get_type())
G_DECLARE_FINAL_TYPE(LwLayoutHost, lw_layout_host, LW, LAYOUT_HOST, GtkWidget)

GtkWidget *lw_layout_host_new(void);

G_END_DECLS

#endif
