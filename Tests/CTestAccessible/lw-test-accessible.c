#include "lw-test-accessible.h"

char *lw_test_accessible_label_mismatch(GtkWidget *widget, const char *expected) {
    return gtk_test_accessible_check_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, expected);
}

char *lw_test_accessible_labelled_by_mismatch(GtkWidget *widget, GtkWidget *label) {
    return gtk_test_accessible_check_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL);
}
