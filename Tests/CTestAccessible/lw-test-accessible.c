#include "lw-test-accessible.h"

char *lw_test_accessible_label_mismatch(GtkWidget *widget, const char *expected) {
    return gtk_test_accessible_check_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, expected);
}

char *lw_test_accessible_described_by_mismatch(GtkWidget *widget, GtkWidget *first, GtkWidget *second) {
    return gtk_test_accessible_check_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, first, second, NULL);
}
