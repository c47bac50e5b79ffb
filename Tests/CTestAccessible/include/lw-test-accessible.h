#ifndef LW_TEST_ACCESSIBLE_H
#define LW_TEST_ACCESSIBLE_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* GTK's test accessibility checks for the GTK tests: they are variadic, which Swift cannot call.
 * Each returns NULL when the widget has what is expected, else what it has (free with g_free). */

/* gtk_test_accessible_check_property: the widget's accessible label. */
char *lw_test_accessible_label_mismatch(GtkWidget *widget, const char *expected);

/* gtk_test_accessible_check_relation: the widget described by `first` and `second`, in order. */
char *lw_test_accessible_described_by_mismatch(GtkWidget *widget, GtkWidget *first, GtkWidget *second);

G_END_DECLS

#endif
