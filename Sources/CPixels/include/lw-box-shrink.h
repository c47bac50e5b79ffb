#ifndef LW_BOX_SHRINK_H
#define LW_BOX_SHRINK_H
#include <stddef.h>
#include <stdint.h>

/* Shrinks one 8-bit plane by an integer factor, 2 or 4, with a box filter: each output sample is
 * the rounded mean of a factor × factor block of the source. The source must have at least
 * dst_width × factor columns and dst_height × factor rows. Returns 0, or -1 for another factor or
 * when it can't get its row buffer. */
int lw_box_shrink_plane(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst, ptrdiff_t dst_stride,
                        int dst_width, int dst_height, int factor);

#endif
