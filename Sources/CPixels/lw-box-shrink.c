#include "lw-box-shrink.h"
#include <stdlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The portable loops (other CPUs, and the last samples of a row), written for the compiler to
 * vectorise: the factor source rows are summed into a row of 16-bit sums, then each run of factor
 * sums becomes one output sample. The factor is a constant in each copy (always_inline), so the
 * division by factor² is a shift. */
static inline __attribute__((always_inline)) void
shrink_portable(const uint8_t *src, ptrdiff_t src_stride, uint8_t *out, int from_x, int dst_width,
                uint16_t *sums, const int factor) {
    const unsigned area = (unsigned)(factor * factor);
    for (int x = from_x * factor; x < dst_width * factor; x++) sums[x] = src[x];
    for (int r = 1; r < factor; r++) {
        const uint8_t *next = src + (ptrdiff_t)r * src_stride;
        for (int x = from_x * factor; x < dst_width * factor; x++) sums[x] = (uint16_t)(sums[x] + next[x]);
    }
    for (int x = from_x; x < dst_width; x++) {
        unsigned sum = area / 2;
        for (int c = 0; c < factor; c++) sum += sums[x * factor + c];
        out[x] = (uint8_t)(sum / area);
    }
}

#if defined(__SSE2__)
/* 16-bit column sums of `rows` rows of 16 source bytes, low and high halves. */
static inline __attribute__((always_inline)) void
column_sums(const uint8_t *src, ptrdiff_t src_stride, int rows, __m128i *low, __m128i *high) {
    const __m128i zero = _mm_setzero_si128();
    __m128i bytes = _mm_loadu_si128((const __m128i *)src);
    *low = _mm_unpacklo_epi8(bytes, zero);
    *high = _mm_unpackhi_epi8(bytes, zero);
    for (int r = 1; r < rows; r++) {
        bytes = _mm_loadu_si128((const __m128i *)(src + (ptrdiff_t)r * src_stride));
        *low = _mm_add_epi16(*low, _mm_unpacklo_epi8(bytes, zero));
        *high = _mm_add_epi16(*high, _mm_unpackhi_epi8(bytes, zero));
    }
}

/* One output row of a 2× shrink, 16 samples (32 source columns) a step; returns where it stopped. */
static int shrink_row_2(const uint8_t *src, ptrdiff_t src_stride, uint8_t *out, int dst_width) {
    const __m128i ones = _mm_set1_epi16(1), rounding = _mm_set1_epi16(2);
    int x = 0;
    for (; x + 16 <= dst_width; x += 16) {
        __m128i sums[4];
        column_sums(src + 2 * x, src_stride, 2, &sums[0], &sums[1]);
        column_sums(src + 2 * x + 16, src_stride, 2, &sums[2], &sums[3]);
        /* madd adds neighbouring 16-bit sums into 32-bit ones: the 2×2 block sums. */
        __m128i first = _mm_packs_epi32(_mm_madd_epi16(sums[0], ones), _mm_madd_epi16(sums[1], ones));
        __m128i second = _mm_packs_epi32(_mm_madd_epi16(sums[2], ones), _mm_madd_epi16(sums[3], ones));
        first = _mm_srli_epi16(_mm_add_epi16(first, rounding), 2);
        second = _mm_srli_epi16(_mm_add_epi16(second, rounding), 2);
        _mm_storeu_si128((__m128i *)(out + x), _mm_packus_epi16(first, second));
    }
    return x;
}

/* One output row of a 4× shrink, 16 samples (64 source columns) a step; returns where it stopped. */
static int shrink_row_4(const uint8_t *src, ptrdiff_t src_stride, uint8_t *out, int dst_width) {
    const __m128i ones = _mm_set1_epi16(1), rounding = _mm_set1_epi16(8);
    int x = 0;
    for (; x + 16 <= dst_width; x += 16) {
        __m128i quads[4];
        for (int part = 0; part < 4; part++) {
            __m128i low, high;
            column_sums(src + 4 * x + 16 * part, src_stride, 4, &low, &high);
            /* Pairs of columns, packed back to 16 bits (≤ 2040), then pairs of pairs. */
            __m128i pairs = _mm_packs_epi32(_mm_madd_epi16(low, ones), _mm_madd_epi16(high, ones));
            quads[part] = _mm_madd_epi16(pairs, ones);
        }
        __m128i first = _mm_packs_epi32(quads[0], quads[1]);
        __m128i second = _mm_packs_epi32(quads[2], quads[3]);
        first = _mm_srli_epi16(_mm_add_epi16(first, rounding), 4);
        second = _mm_srli_epi16(_mm_add_epi16(second, rounding), 4);
        _mm_storeu_si128((__m128i *)(out + x), _mm_packus_epi16(first, second));
    }
    return x;
}
#endif

/* One output row; SSE2 for the factors it has, the portable loops for the rest of the row. */
static inline __attribute__((always_inline)) void
shrink_row(const uint8_t *src, ptrdiff_t src_stride, uint8_t *out, int dst_width, uint16_t *sums,
           const int factor) {
    int done = 0;
#if defined(__SSE2__)
    if (factor == 2) done = shrink_row_2(src, src_stride, out, dst_width);
    if (factor == 4) done = shrink_row_4(src, src_stride, out, dst_width);
#endif
    if (done < dst_width) shrink_portable(src, src_stride, out, done, dst_width, sums, factor);
}

int lw_box_shrink_plane(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst, ptrdiff_t dst_stride,
                        int dst_width, int dst_height, int factor) {
    if ((factor != 2 && factor != 4) || dst_width <= 0 || dst_height <= 0) return -1;
    uint16_t *sums = malloc(sizeof(uint16_t) * (size_t)dst_width * (size_t)factor);
    if (sums == NULL) return -1;
    for (int y = 0; y < dst_height; y++) {
        const uint8_t *rows = src + (ptrdiff_t)y * factor * src_stride;
        uint8_t *out = dst + (ptrdiff_t)y * dst_stride;
        if (factor == 2) shrink_row(rows, src_stride, out, dst_width, sums, 2);
        else shrink_row(rows, src_stride, out, dst_width, sums, 4);
    }
    free(sums);
    return 0;
}
