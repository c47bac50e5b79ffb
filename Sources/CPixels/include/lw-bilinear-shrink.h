#ifndef LW_BILINEAR_SHRINK_H
#define LW_BILINEAR_SHRINK_H
#include <stddef.h>
#include <stdint.h>

/* Resizes one 8-bit plane from src_width × src_height down to dst_width × dst_height by bilinear
 * interpolation (each output sample is taken at its centre's place in the source, from the two
 * nearest samples across and the two nearest down, in 64ths). It handles shrinking to more than
 * half the width (src_width < 2 × dst_width, not larger than the source) on x86 CPUs with SSSE3,
 * and returns 0; otherwise it returns -1 and writes nothing, for the caller to use swscale. */
int lw_bilinear_shrink_plane(const uint8_t *src, ptrdiff_t src_stride, int src_width, int src_height,
                             uint8_t *dst, ptrdiff_t dst_stride, int dst_width, int dst_height);

#endif
