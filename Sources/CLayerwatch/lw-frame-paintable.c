#include "lw-frame-paintable.h"

struct _LwFramePaintable {
    GObject parent_instance;
    GdkTexture *texture;
    cairo_surface_t *surface;
    /* The surfaces shown before, kept until GTK has surely dropped the render nodes that recorded
     * them: a surface destroyed while a recording of it lives is first copied (copy-on-write). */
    cairo_surface_t *retired[2];
    int stream_width;
    int stream_height;
    /* How the camera is mounted: quarter turns clockwise (0-3), applied after the flips. */
    int quarter_turns;
    gboolean flip_horizontal;
    gboolean flip_vertical;
};

static void lw_frame_paintable_paintable_init(GdkPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(LwFramePaintable, lw_frame_paintable, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, lw_frame_paintable_paintable_init))

/* Draws the frame upright into `width` x `height`. */
static void lw_frame_paintable_draw(LwFramePaintable *self, GdkSnapshot *snapshot, double width, double height) {
    graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height);
    if (self->texture != NULL) {
        gtk_snapshot_append_texture(GTK_SNAPSHOT(snapshot), self->texture, &bounds);
    } else if (self->surface != NULL) {
        /* Frames are converted to the size they are shown at, so this is a copy unless the view
         * is being resized: cairo draws an unscaled surface at a whole-pixel offset unfiltered. */
        cairo_t *cr = gtk_snapshot_append_cairo(GTK_SNAPSHOT(snapshot), &bounds);
        cairo_scale(cr, width / cairo_image_surface_get_width(self->surface),
                    height / cairo_image_surface_get_height(self->surface));
        cairo_set_source_surface(cr, self->surface, 0, 0);
        cairo_paint(cr);
        cairo_destroy(cr);
    } else {
        GdkRGBA black = {0, 0, 0, 1};
        gtk_snapshot_append_color(GTK_SNAPSHOT(snapshot), &black, &bounds);
    }
}

static gboolean lw_frame_paintable_is_sideways(LwFramePaintable *self) {
    return self->quarter_turns % 2 == 1;
}

static void lw_frame_paintable_snapshot(GdkPaintable *paintable, GdkSnapshot *snapshot, double width, double height) {
    LwFramePaintable *self = LW_FRAME_PAINTABLE(paintable);
    if (self->quarter_turns == 0 && !self->flip_horizontal && !self->flip_vertical) {
        lw_frame_paintable_draw(self, snapshot, width, height);
        return;
    }
    /* Flip, then turn, about the centre; a sideways frame is drawn with its sides swapped. */
    gboolean sideways = lw_frame_paintable_is_sideways(self);
    double frame_width = sideways ? height : width, frame_height = sideways ? width : height;
    gtk_snapshot_save(GTK_SNAPSHOT(snapshot));
    gtk_snapshot_translate(GTK_SNAPSHOT(snapshot), &GRAPHENE_POINT_INIT((float)(width / 2), (float)(height / 2)));
    gtk_snapshot_rotate(GTK_SNAPSHOT(snapshot), 90.0f * (float)self->quarter_turns);
    gtk_snapshot_scale(GTK_SNAPSHOT(snapshot), self->flip_horizontal ? -1.0f : 1.0f, self->flip_vertical ? -1.0f : 1.0f);
    gtk_snapshot_translate(GTK_SNAPSHOT(snapshot), &GRAPHENE_POINT_INIT((float)(-frame_width / 2), (float)(-frame_height / 2)));
    lw_frame_paintable_draw(self, snapshot, frame_width, frame_height);
    gtk_snapshot_restore(GTK_SNAPSHOT(snapshot));
}

static int lw_frame_paintable_get_intrinsic_width(GdkPaintable *paintable) {
    LwFramePaintable *self = LW_FRAME_PAINTABLE(paintable);
    return lw_frame_paintable_is_sideways(self) ? self->stream_height : self->stream_width;
}

static int lw_frame_paintable_get_intrinsic_height(GdkPaintable *paintable) {
    LwFramePaintable *self = LW_FRAME_PAINTABLE(paintable);
    return lw_frame_paintable_is_sideways(self) ? self->stream_width : self->stream_height;
}

static double lw_frame_paintable_get_intrinsic_aspect_ratio(GdkPaintable *paintable) {
    LwFramePaintable *self = LW_FRAME_PAINTABLE(paintable);
    double ratio = self->stream_width <= 0 || self->stream_height <= 0 ? 16.0 / 9.0
                                                                       : (double)self->stream_width / (double)self->stream_height;
    return lw_frame_paintable_is_sideways(self) ? 1.0 / ratio : ratio;
}

static void lw_frame_paintable_paintable_init(GdkPaintableInterface *iface) {
    iface->snapshot = lw_frame_paintable_snapshot;
    iface->get_intrinsic_width = lw_frame_paintable_get_intrinsic_width;
    iface->get_intrinsic_height = lw_frame_paintable_get_intrinsic_height;
    iface->get_intrinsic_aspect_ratio = lw_frame_paintable_get_intrinsic_aspect_ratio;
}

/* Moves the shown surface (if any) into the retired ones, destroying the oldest. */
static void lw_frame_paintable_retire_surface(LwFramePaintable *self) {
    if (self->retired[1] != NULL) cairo_surface_destroy(self->retired[1]);
    self->retired[1] = self->retired[0];
    self->retired[0] = self->surface;
    self->surface = NULL;
}

static void lw_frame_paintable_dispose(GObject *object) {
    LwFramePaintable *self = LW_FRAME_PAINTABLE(object);
    g_clear_object(&self->texture);
    g_clear_pointer(&self->surface, cairo_surface_destroy);
    for (int i = 0; i < 2; i++) g_clear_pointer(&self->retired[i], cairo_surface_destroy);
    G_OBJECT_CLASS(lw_frame_paintable_parent_class)->dispose(object);
}

static void lw_frame_paintable_class_init(LwFramePaintableClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = lw_frame_paintable_dispose;
}

static void lw_frame_paintable_init(LwFramePaintable *self) {
    (void)self;
}

LwFramePaintable *lw_frame_paintable_new(void) {
    return g_object_new(LW_TYPE_FRAME_PAINTABLE, NULL);
}

static void lw_frame_paintable_show(LwFramePaintable *self, int stream_width, int stream_height) {
    gboolean resized = stream_width != self->stream_width || stream_height != self->stream_height;
    self->stream_width = stream_width;
    self->stream_height = stream_height;
    if (resized) gdk_paintable_invalidate_size(GDK_PAINTABLE(self));
    gdk_paintable_invalidate_contents(GDK_PAINTABLE(self));
}

void lw_frame_paintable_set_frame(LwFramePaintable *self, GdkTexture *texture, int stream_width, int stream_height) {
    g_return_if_fail(LW_IS_FRAME_PAINTABLE(self));
    g_set_object(&self->texture, texture);
    lw_frame_paintable_retire_surface(self);
    lw_frame_paintable_show(self, stream_width, stream_height);
}

void lw_frame_paintable_set_surface(LwFramePaintable *self, cairo_surface_t *surface, int stream_width, int stream_height) {
    g_return_if_fail(LW_IS_FRAME_PAINTABLE(self));
    lw_frame_paintable_retire_surface(self);
    self->surface = surface != NULL ? cairo_surface_reference(surface) : NULL;
    g_clear_object(&self->texture);
    lw_frame_paintable_show(self, stream_width, stream_height);
}

void lw_frame_paintable_set_orientation(LwFramePaintable *self, int quarter_turns, gboolean flip_horizontal,
                                        gboolean flip_vertical) {
    g_return_if_fail(LW_IS_FRAME_PAINTABLE(self));
    quarter_turns = ((quarter_turns % 4) + 4) % 4;
    if (quarter_turns == self->quarter_turns && !flip_horizontal == !self->flip_horizontal
        && !flip_vertical == !self->flip_vertical) return;
    gboolean turned = lw_frame_paintable_is_sideways(self) != (quarter_turns % 2 == 1);
    self->quarter_turns = quarter_turns;
    self->flip_horizontal = flip_horizontal;
    self->flip_vertical = flip_vertical;
    if (turned) gdk_paintable_invalidate_size(GDK_PAINTABLE(self));
    gdk_paintable_invalidate_contents(GDK_PAINTABLE(self));
}
