#include "lw-glib-calls.h"

void lw_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

void lw_accessible_set_described_by(GtkWidget *widget, GtkWidget *first, GtkWidget *second) {
    gtk_accessible_update_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, first, second, NULL, -1);
}

void lw_log(GLogLevelFlags level, const char *message) {
    g_log_structured("Layerwatch", level, "MESSAGE", "%s", message);
}

void lw_shortcuts_group_add_shortcut(GtkWidget *group, const char *accelerator, const char *title) {
    g_return_if_fail(GTK_IS_SHORTCUTS_GROUP(group));
    GObject *shortcut = g_object_new(GTK_TYPE_SHORTCUTS_SHORTCUT, "accelerator", accelerator, "title", title, NULL);
    GTK_BUILDABLE_GET_IFACE(group)->add_child(GTK_BUILDABLE(group), NULL, shortcut, NULL);
}
