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

/* Shows `texture` (may be NULL: black) scaled into whatever size the paintable is drawn at.
 * `stream_width`/`stream_height` are the stream's own size; a change invalidates the size. */
void lw_frame_paintable_set_frame(LwFramePaintable *self, GdkTexture *texture, int stream_width, int stream_height);

/* The same with a cairo image surface (ARGB32) instead of a texture, for the cairo renderer: it is
 * painted through a cairo node, so GTK 4.8 does not convert every pixel of a memory texture to
 * float and back to draw it. */
void lw_frame_paintable_set_surface(LwFramePaintable *self, cairo_surface_t *surface, int stream_width, int stream_height);

/* Shows the frames as a camera mounted this way needs: flipped (mirrored left-right, upside down),
 * then turned `quarter_turns` quarters clockwise about the centre. A sideways turn swaps the
 * intrinsic width and height. GTK applies it while drawing: no pixel is moved in memory. */
void lw_frame_paintable_set_orientation(LwFramePaintable *self, int quarter_turns, gboolean flip_horizontal,
                                        gboolean flip_vertical);

G_END_DECLS

#endif
