#include "lw-yuv-to-bgra.h"
#include <math.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

void lw_yuv_matrix_init(LwYuvMatrix *matrix, double kr, double kb, int full_range) {
    double kg = 1 - kr - kb;
    double luma = full_range ? 1 : 255.0 / 219, chroma = full_range ? 1 : 255.0 / 224;
    double black = full_range ? 0 : 16;
    matrix->y_scale = (int16_t)lround(luma * 32 * 256);
    matrix->y_offset = (int16_t)(lround(black * luma * 32) - 16);
    matrix->v_to_r = (int16_t)lround(2 * (1 - kr) * chroma * 32 * 256);
    matrix->u_to_b = (int16_t)lround(2 * (1 - kb) * chroma * 32 * 256);
    matrix->u_to_g = (int16_t)lround(2 * kb * (1 - kb) / kg * chroma * 32 * 256);
    matrix->v_to_g = (int16_t)lround(2 * kr * (1 - kr) / kg * chroma * 32 * 256);
}

#if defined(__x86_64__) || defined(__i386__)
/* The high half of a signed 16 × 16 product, as pmulhw computes it. */
static inline int high(int a, int b) { return (a * b) >> 16; }

static inline uint8_t clamp(int value) { return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value); }

/* One pixel, with exactly the vector code's arithmetic (the ends of rows that aren't 32 wide). */
static inline void pixel(uint8_t y, uint8_t u, uint8_t v, uint8_t *out, const LwYuvMatrix *m, int rgba) {
    int luma = (int)(((unsigned)(y << 8) * (uint16_t)m->y_scale) >> 16) - m->y_offset;
    int cu = (u - 128) * 256, cv = (v - 128) * 256;
    int16_t green = (int16_t)(high(cu, m->u_to_g) + high(cv, m->v_to_g));
    out[rgba ? 2 : 0] = clamp((int16_t)(luma + high(cu, m->u_to_b)) >> 5);
    out[1] = clamp((int16_t)(luma - green) >> 5);
    out[rgba ? 0 : 2] = clamp((int16_t)(luma + high(cv, m->v_to_r)) >> 5);
    out[3] = 255;
}

/* 32 pixels a step: 32 Y and 16 U, V samples. AVX2 unpacks work within 128-bit lanes, so the
 * low lane carries pixels 0–7 and 16–23, the high lane 8–15 and 24–31 until the final stores. */
__attribute__((target("avx2"))) static void
convert_avx2(const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u, ptrdiff_t u_stride, const uint8_t *v,
             ptrdiff_t v_stride, uint8_t *out, ptrdiff_t out_stride, int width, int height, const LwYuvMatrix *m,
             int rgba) {
    const __m256i zero = _mm256_setzero_si256(), middle = _mm256_set1_epi16(128), alpha = _mm256_set1_epi8((char)255);
    const __m256i y_scale = _mm256_set1_epi16(m->y_scale), y_offset = _mm256_set1_epi16(m->y_offset);
    const __m256i v_to_r = _mm256_set1_epi16(m->v_to_r), u_to_b = _mm256_set1_epi16(m->u_to_b);
    const __m256i u_to_g = _mm256_set1_epi16(m->u_to_g), v_to_g = _mm256_set1_epi16(m->v_to_g);
    for (int row = 0; row < height; row++) {
        const uint8_t *ys = y + row * y_stride, *us = u + (row / 2) * u_stride, *vs = v + (row / 2) * v_stride;
        uint8_t *o = out + row * out_stride;
        int x = 0;
        for (; x + 32 <= width; x += 32) {
            __m256i luma8 = _mm256_loadu_si256((const __m256i *)(ys + x));
            __m256i cu = _mm256_slli_epi16(_mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(us + x / 2))), middle), 8);
            __m256i cv = _mm256_slli_epi16(_mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(vs + x / 2))), middle), 8);
            __m256i red = _mm256_mulhi_epi16(cv, v_to_r), blue = _mm256_mulhi_epi16(cu, u_to_b);
            __m256i green = _mm256_add_epi16(_mm256_mulhi_epi16(cu, u_to_g), _mm256_mulhi_epi16(cv, v_to_g));
            /* Each chroma term twice, for its two pixels. */
            __m256i red_low = _mm256_unpacklo_epi16(red, red), red_high = _mm256_unpackhi_epi16(red, red);
            __m256i blue_low = _mm256_unpacklo_epi16(blue, blue), blue_high = _mm256_unpackhi_epi16(blue, blue);
            __m256i green_low = _mm256_unpacklo_epi16(green, green), green_high = _mm256_unpackhi_epi16(green, green);
            __m256i luma_low = _mm256_sub_epi16(_mm256_mulhi_epu16(_mm256_unpacklo_epi8(zero, luma8), y_scale), y_offset);
            __m256i luma_high = _mm256_sub_epi16(_mm256_mulhi_epu16(_mm256_unpackhi_epi8(zero, luma8), y_scale), y_offset);
            __m256i r = _mm256_packus_epi16(_mm256_srai_epi16(_mm256_add_epi16(luma_low, red_low), 5),
                                            _mm256_srai_epi16(_mm256_add_epi16(luma_high, red_high), 5));
            __m256i g = _mm256_packus_epi16(_mm256_srai_epi16(_mm256_sub_epi16(luma_low, green_low), 5),
                                            _mm256_srai_epi16(_mm256_sub_epi16(luma_high, green_high), 5));
            __m256i b = _mm256_packus_epi16(_mm256_srai_epi16(_mm256_add_epi16(luma_low, blue_low), 5),
                                            _mm256_srai_epi16(_mm256_add_epi16(luma_high, blue_high), 5));
            __m256i first = rgba ? r : b, third = rgba ? b : r;
            __m256i bg_low = _mm256_unpacklo_epi8(first, g), bg_high = _mm256_unpackhi_epi8(first, g);
            __m256i ra_low = _mm256_unpacklo_epi8(third, alpha), ra_high = _mm256_unpackhi_epi8(third, alpha);
            __m256i p0 = _mm256_unpacklo_epi16(bg_low, ra_low), p1 = _mm256_unpackhi_epi16(bg_low, ra_low);
            __m256i p2 = _mm256_unpacklo_epi16(bg_high, ra_high), p3 = _mm256_unpackhi_epi16(bg_high, ra_high);
            _mm256_storeu_si256((__m256i *)(o + 4 * x), _mm256_permute2x128_si256(p0, p1, 0x20));
            _mm256_storeu_si256((__m256i *)(o + 4 * x + 32), _mm256_permute2x128_si256(p2, p3, 0x20));
            _mm256_storeu_si256((__m256i *)(o + 4 * x + 64), _mm256_permute2x128_si256(p0, p1, 0x31));
            _mm256_storeu_si256((__m256i *)(o + 4 * x + 96), _mm256_permute2x128_si256(p2, p3, 0x31));
        }
        for (; x < width; x++) pixel(ys[x], us[x / 2], vs[x / 2], o + 4 * x, m, rgba);
    }
}

int lw_yuv420_to_bgra(const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u, ptrdiff_t u_stride,
                      const uint8_t *v, ptrdiff_t v_stride, uint8_t *out, ptrdiff_t out_stride,
                      int width, int height, const LwYuvMatrix *matrix, int rgba) {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || width < 1 || height < 1) return -1;
    convert_avx2(y, y_stride, u, u_stride, v, v_stride, out, out_stride, width, height, matrix, rgba);
    return 0;
}
#else
int lw_yuv420_to_bgra(const uint8_t *y, ptrdiff_t y_stride, const uint8_t *u, ptrdiff_t u_stride,
                      const uint8_t *v, ptrdiff_t v_stride, uint8_t *out, ptrdiff_t out_stride,
                      int width, int height, const LwYuvMatrix *matrix, int rgba) {
    (void)rgba; (void)y; (void)y_stride; (void)u; (void)u_stride; (void)v; (void)v_stride;
    (void)out; (void)out_stride; (void)width; (void)height; (void)matrix;
    return -1;
}
#endif
