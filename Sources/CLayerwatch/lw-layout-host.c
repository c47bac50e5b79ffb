#include "lw-layout-host.h"

struct _LwLayoutHost {
    GtkWidget parent_instance;
};

G_DEFINE_FINAL_TYPE(LwLayoutHost, lw_layout_host, GTK_TYPE_WIDGET)

static void lw_layout_host_dispose(GObject *object) {
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(object))) != NULL) {
        gtk_widget_unparent(child);
    }
    G_OBJECT_CLASS(lw_layout_host_parent_class)->dispose(object);
}

static void lw_layout_host_class_init(LwLayoutHostClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = lw_layout_host_dispose;
    gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "layout-host");
}

static void lw_layout_host_init(LwLayoutHost *self) {
    (void)self;
}

GtkWidget *lw_layout_host_new(void) {
    return g_object_new(LW_TYPE_LAYOUT_HOST, NULL);
}
