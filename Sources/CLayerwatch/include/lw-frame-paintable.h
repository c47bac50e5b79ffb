#ifndef LW_FRAME_PAINTABLE_H
#define LW_FRAME_PAINTABLE_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A paintable that shows the newest video frame. One instance lives for the whole life of a view:
 * each frame only swaps its texture and invalidates its contents, so the GtkPicture showing it is
 * never re-measured per frame. Its intrinsic size is the stream's size, not the (possibly smaller)
 * size frames are converted to, so a change of conversion size does not relayout either. */
#define LW_TYPE_FRAME_PAINTABLE (lw_frame_paintable_get_type())
G_DECLARE_FINAL_TYPE(LwFramePaintable, lw_frame_paintable, LW, FRAME_PAINTABLE, GObject)

LwFramePaintable *lw_frame_paintable_new(void);

/* Where a frame sits in its stream: the stream's own size, and the rectangle of it the frame shows
 * (all of it, or a zoomed view's region), in the stream's pixels. */
typedef struct {
    int stream_width;
    int stream_height;
    int x;
    int y;
    int width;
    int height;
} LwFramePlacement;

/* Shows `texture` (may be NULL: black), which shows `placement`'s rectangle of the stream, scaled
 * into the part of whatever size the paintable is drawn at that the rectangle takes in the viewport.
 * A change of the stream's size invalidates the size. */
void lw_frame_paintable_set_frame(LwFramePaintable *self, GdkTexture *texture, const LwFramePlacement *placement);

/* The same with a cairo image surface (ARGB32) instead of a texture, for the cairo renderer: it is
 * painted through a cairo node, so GTK 4.8 does not convert every pixel of a memory texture to
 * float and back to draw it. */
void lw_frame_paintable_set_surface(LwFramePaintable *self, cairo_surface_t *surface, const LwFramePlacement *placement);

/* Shows only the part of the stream at (`x`, `y`), `width` x `height`, in fractions of its sides
 * (zoom and pan; 0, 0, 1, 1 shows all of it), stretched over the paintable. Frames of another part
 * are drawn where that part falls, clipped; a zoomed view keeps the last whole picture under the
 * frame wherever that does not reach, so a pan never shows a blank edge while the next frame comes. */
void lw_frame_paintable_set_viewport(LwFramePaintable *self, double x, double y, double width, double height);

/* Shows the frames as a camera mounted this way needs: flipped (mirrored left-right, upside down),
 * then turned `quarter_turns` quarters clockwise about the centre. A sideways turn swaps the
 * intrinsic width and height. GTK applies it while drawing: no pixel is moved in memory. */
void lw_frame_paintable_set_orientation(LwFramePaintable *self, int quarter_turns, gboolean flip_horizontal,
                                        gboolean flip_vertical);

G_END_DECLS

#endif
