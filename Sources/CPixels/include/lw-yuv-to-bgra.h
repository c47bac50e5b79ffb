#ifndef LW_YUV_TO_BGRA_H
#define LW_YUV_TO_BGRA_H
#include <stddef.h>
#include <stdint.h>

/* A YUV → RGB matrix in the fixed-point form the converter uses (outputs in 32nds of a level). */
typedef struct {
    int16_t y_scale;   /* multiplies Y << 8, unsigned high half */
    int16_t y_offset;  /* subtracted from the Y term, less the rounding half */
    int16_t v_to_r, u_to_b, u_to_g, v_to_g; /* multiply (C − 128) << 8, signed high half */
} LwYuvMatrix;

/* The matrix for luma weights kr and kb (BT.601: 0.299, 0.114; BT.709: 0.2126, 0.0722) in video
 * range (Y 16–235, C 16–240) or full range (0–255). */
void lw_yuv_matrix_init(LwYuvMatrix *matrix, double kr, double kb, int full_range);

/* Converts a 4:2:0 picture to BGRA (alpha 255), or RGBA when `rgba` is set, with AVX2. Returns 0, or
 * -1 and writes nothing on a CPU without AVX2, for the caller to use swscale. Each output is within
 * two levels of the exact conversion. */
int lw_yuv420_to_bgra(const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u, ptrdiff_t u_stride,
                      const uint8_t *v, ptrdiff_t v_stride, uint8_t *out, ptrdiff_t out_stride,
                      int width, int height, const LwYuvMatrix *matrix, int rgba);

#endif
