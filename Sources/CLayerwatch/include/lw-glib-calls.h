#ifndef LW_GLIB_CALLS_H
#define LW_GLIB_CALLS_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* GLib and GTK calls Swift cannot make itself: variadic functions, and macros that expand to
 * expressions. Each wrapper makes exactly one call. */

/* G_SOURCE_CONTINUE is (!FALSE), which Swift cannot import. */
static const gboolean LW_G_SOURCE_CONTINUE = G_SOURCE_CONTINUE;

/* gtk_accessible_update_property: the accessible label of a widget (icon-only buttons). */
void lw_accessible_set_label(GtkWidget *widget, const char *label);

/* gtk_accessible_update_relation: a widget described by two others (a form field by its hint and
 * error lines). */
void lw_accessible_set_described_by(GtkWidget *widget, GtkWidget *first, GtkWidget *second);

/* g_log_structured: one message under the Layerwatch log domain. */
void lw_log(GLogLevelFlags level, const char *message);

/* Adds a shortcut row (`accelerator`, `title`) to a GtkShortcutsGroup, as GtkBuilder would: GTK 4.8
 * has no public call for it, only the group's GtkBuildable add_child. */
void lw_shortcuts_group_add_shortcut(GtkWidget *group, const char *accelerator, const char *title);

G_END_DECLS

#endif
