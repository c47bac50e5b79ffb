#include "lw-frame-paintable.h"

#include <string.h>

#define LW_RETIRED_SURFACES 4

/* A picture to draw and where it sits in the stream. */
typedef struct {
    GdkTexture *texture;
    cairo_surface_t *surface;
    LwFramePlacement placement;
} LwShownFrame;

struct _LwFramePaintable {
    GObject parent_instance;
    LwShownFrame frame;
    /* While zoomed: the last frame of the whole picture, drawn under the zoomed region's frame
     * wherever that does not cover the view yet (a pan, before the next frame comes). */
    LwShownFrame backdrop;
    /* Surfaces shown before, kept until GTK has surely dropped the render nodes that recorded
     * them: a surface destroyed while a recording of it lives is first copied (copy-on-write). */
    cairo_surface_t *retired[LW_RETIRED_SURFACES];
    int stream_width;
    int stream_height;
    /* The part of the stream in view, as fractions of its sides (zoom and pan). */
    graphene_rect_t viewport;
    /* How the camera is mounted: quarter turns clockwise (0-3), applied after the flips. */
    int quarter_turns;
    gboolean flip_horizontal;
    gboolean flip_vertical;
};

static void lw_frame_paintable_paintable_init(GdkPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(LwFramePaintable, lw_frame_paintable, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, lw_frame_paintable_paintable_init))

/* Whether `placement` covers all of its stream. */
static gboolean lw_frame_placement_is_whole(const LwFramePlacement *placement) {
    return placement->x == 0 && placement->y == 0 && placement->width == placement->stream_width
           && placement->height == placement->stream_height;
}

/* Whether the view shows the whole picture. */
static gboolean lw_frame_paintable_is_zoomed(LwFramePaintable *self) {
    return self->viewport.origin.x != 0 || self->viewport.origin.y != 0 || self->viewport.size.width != 1
           || self->viewport.size.height != 1;
}

/* Where `shown` goes in a `width` x `height` view of the viewport. */
static graphene_rect_t lw_frame_paintable_place(LwFramePaintable *self, const LwShownFrame *shown, double width, double height) {
    const LwFramePlacement *p = &shown->placement;
    double scale_x = width / (self->viewport.size.width * p->stream_width);
    double scale_y = height / (self->viewport.size.height * p->stream_height);
    return GRAPHENE_RECT_INIT((float)((p->x - self->viewport.origin.x * p->stream_width) * scale_x),
                              (float)((p->y - self->viewport.origin.y * p->stream_height) * scale_y),
                              (float)(p->width * scale_x), (float)(p->height * scale_y));
}

static gboolean lw_shown_frame_is_empty(const LwShownFrame *shown) {
    return shown->texture == NULL && shown->surface == NULL;
}

/* Draws `shown` into `place`, within `bounds`. */
static void lw_frame_paintable_draw_frame(GdkSnapshot *snapshot, const LwShownFrame *shown, const graphene_rect_t *place,
                                          const graphene_rect_t *bounds) {
    if (shown->texture != NULL) {
        gtk_snapshot_append_texture(GTK_SNAPSHOT(snapshot), shown->texture, place);
        return;
    }
    /* Frames are converted to the size they are shown at, so this is a copy unless the view is
     * being resized or zoomed past the source: cairo draws an unscaled surface at a whole-pixel
     * offset unfiltered. */
    cairo_t *cr = gtk_snapshot_append_cairo(GTK_SNAPSHOT(snapshot), bounds);
    cairo_translate(cr, place->origin.x, place->origin.y);
    cairo_scale(cr, place->size.width / cairo_image_surface_get_width(shown->surface),
                place->size.height / cairo_image_surface_get_height(shown->surface));
    cairo_set_source_surface(cr, shown->surface, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
}

/* Draws the viewport of the stream upright into `width` x `height`. */
static void lw_frame_paintable_draw(LwFramePaintable *self, GdkSnapshot *snapshot, double width, double height) {
    graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height);
    if (lw_shown_frame_is_empty(&self->frame)) {
        GdkRGBA black = {0, 0, 0, 1};
        gtk_snapshot_append_color(GTK_SNAPSHOT(snapshot), &black, &bounds);
        return;
    }
    graphene_rect_t place = lw_frame_paintable_place(self, &self->frame, width, height);
    if (!lw_frame_paintable_is_zoomed(self) && lw_frame_placement_is_whole(&self->frame.placement)) {
        lw_frame_paintable_draw_frame(snapshot, &self->frame, &place, &bounds);
        return;
    }
    gtk_snapshot_push_clip(GTK_SNAPSHOT(snapshot), &bounds);
    /* Half a pixel of slack: regions are cut a little larger than the view, on even pixels. */
    graphene_rect_t reach;
    graphene_rect_inset_r(&place, -0.5f, -0.5f, &reach);
    if (!graphene_rect_contains_rect(&reach, &bounds) && !lw_shown_frame_is_empty(&self->backdrop)) {
        graphene_rect_t under = lw_frame_paintable_place(self, &self->backdrop, width, height);
        lw_frame_paintable_draw_frame(snapshot, &self->backdrop, &under, &bounds);
    }
    lw_frame_paintable_draw_frame(snapshot, &self->frame, &place, &bounds);
    gtk_snapshot_pop(GTK_SNAPSHOT(snapshot));
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

/* Lets go of `shown`'s picture: a surface joins the retired ones, destroying the oldest. */
static void lw_frame_paintable_release(LwFramePaintable *self, LwShownFrame *shown) {
    g_clear_object(&shown->texture);
    if (shown->surface != NULL) {
        if (self->retired[LW_RETIRED_SURFACES - 1] != NULL) cairo_surface_destroy(self->retired[LW_RETIRED_SURFACES - 1]);
        memmove(&self->retired[1], &self->retired[0], sizeof(self->retired[0]) * (LW_RETIRED_SURFACES - 1));
        self->retired[0] = shown->surface;
        shown->surface = NULL;
    }
}

static void lw_frame_paintable_dispose(GObject *object) {
    LwFramePaintable *self = LW_FRAME_PAINTABLE(object);
    lw_frame_paintable_release(self, &self->frame);
    lw_frame_paintable_release(self, &self->backdrop);
    for (int i = 0; i < LW_RETIRED_SURFACES; i++) g_clear_pointer(&self->retired[i], cairo_surface_destroy);
    G_OBJECT_CLASS(lw_frame_paintable_parent_class)->dispose(object);
}

static void lw_frame_paintable_class_init(LwFramePaintableClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = lw_frame_paintable_dispose;
}

static void lw_frame_paintable_init(LwFramePaintable *self) {
    self->viewport = GRAPHENE_RECT_INIT(0, 0, 1, 1);
}

LwFramePaintable *lw_frame_paintable_new(void) {
    return g_object_new(LW_TYPE_FRAME_PAINTABLE, NULL);
}

/* Shows `texture` or `surface` (one of them, or neither: black) placed as `placement` says. */
static void lw_frame_paintable_show(LwFramePaintable *self, GdkTexture *texture, cairo_surface_t *surface,
                                    const LwFramePlacement *placement) {
    static const LwFramePlacement nothing = {0};
    if (placement == NULL || (texture == NULL && surface == NULL)) placement = &nothing;
    lw_frame_paintable_release(self, &self->frame);
    self->frame.texture = texture != NULL ? g_object_ref(texture) : NULL;
    self->frame.surface = surface != NULL ? cairo_surface_reference(surface) : NULL;
    self->frame.placement = *placement;
    if (lw_frame_placement_is_whole(placement)) {
        lw_frame_paintable_release(self, &self->backdrop);
        if (lw_frame_paintable_is_zoomed(self)) {
            self->backdrop.texture = texture != NULL ? g_object_ref(texture) : NULL;
            self->backdrop.surface = surface != NULL ? cairo_surface_reference(surface) : NULL;
            self->backdrop.placement = *placement;
        }
    }
    gboolean resized = placement->stream_width != self->stream_width || placement->stream_height != self->stream_height;
    self->stream_width = placement->stream_width;
    self->stream_height = placement->stream_height;
    if (resized) gdk_paintable_invalidate_size(GDK_PAINTABLE(self));
    gdk_paintable_invalidate_contents(GDK_PAINTABLE(self));
}

void lw_frame_paintable_set_frame(LwFramePaintable *self, GdkTexture *texture, const LwFramePlacement *placement) {
    g_return_if_fail(LW_IS_FRAME_PAINTABLE(self));
    lw_frame_paintable_show(self, texture, NULL, placement);
}

void lw_frame_paintable_set_surface(LwFramePaintable *self, cairo_surface_t *surface, const LwFramePlacement *placement) {
    g_return_if_fail(LW_IS_FRAME_PAINTABLE(self));
    lw_frame_paintable_show(self, NULL, surface, placement);
}

void lw_frame_paintable_set_viewport(LwFramePaintable *self, double x, double y, double width, double height) {
    g_return_if_fail(LW_IS_FRAME_PAINTABLE(self));
    graphene_rect_t viewport = GRAPHENE_RECT_INIT((float)x, (float)y, (float)width, (float)height);
    if (graphene_rect_equal(&viewport, &self->viewport)) return;
    gboolean was_zoomed = lw_frame_paintable_is_zoomed(self);
    self->viewport = viewport;
    /* Zooming in: the picture on screen now (the whole one) becomes the backdrop. */
    if (!was_zoomed && lw_frame_paintable_is_zoomed(self) && lw_frame_placement_is_whole(&self->frame.placement)
        && !lw_shown_frame_is_empty(&self->frame)) {
        lw_frame_paintable_release(self, &self->backdrop);
        self->backdrop.texture = self->frame.texture != NULL ? g_object_ref(self->frame.texture) : NULL;
        self->backdrop.surface = self->frame.surface != NULL ? cairo_surface_reference(self->frame.surface) : NULL;
        self->backdrop.placement = self->frame.placement;
    }
    gdk_paintable_invalidate_contents(GDK_PAINTABLE(self));
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
