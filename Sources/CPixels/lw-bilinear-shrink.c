#include "lw-bilinear-shrink.h"
#include <stdlib.h>
#if defined(__x86_64__) || defined(__i386__)
#include <tmmintrin.h>

/* Where output sample `index` of `count` falls in a source of `size` samples: the source sample
 * before it and the weight (0–64) of the one after. */
static void sample_position(int index, int count, int size, int *before, int *weight) {
    int64_t position = ((int64_t)(2 * index + 1) * size * 64) / (2 * count) - 32;
    if (position < 0) position = 0;
    *before = (int)(position >> 6);
    *weight = (int)(position & 63);
    if (*before >= size - 1) {
        *before = size - 2;
        *weight = 64;
    }
}

/* One row blended from source rows `above` and `below` (weight of `below` 0–64), all `width` bytes. */
static void blend_rows(const uint8_t *above, const uint8_t *below, int weight, uint8_t *row, int width) {
    const __m128i zero = _mm_setzero_si128(), rounding = _mm_set1_epi16(32);
    const __m128i lower = _mm_set1_epi16((short)weight), upper = _mm_set1_epi16((short)(64 - weight));
    int x = 0;
    for (; x + 16 <= width; x += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(above + x)), b = _mm_loadu_si128((const __m128i *)(below + x));
        __m128i low = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(a, zero), upper),
                                    _mm_mullo_epi16(_mm_unpacklo_epi8(b, zero), lower));
        __m128i high = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(a, zero), upper),
                                     _mm_mullo_epi16(_mm_unpackhi_epi8(b, zero), lower));
        low = _mm_srli_epi16(_mm_add_epi16(low, rounding), 6);
        high = _mm_srli_epi16(_mm_add_epi16(high, rounding), 6);
        _mm_storeu_si128((__m128i *)(row + x), _mm_packus_epi16(low, high));
    }
    for (; x < width; x++) row[x] = (uint8_t)((above[x] * (64 - weight) + below[x] * weight + 32) >> 6);
}

/* The horizontal step, eight output samples a group: one 16-byte load from the group's first
 * source sample, pshufb lays each output's two source samples side by side, pmaddubsw weighs and
 * adds them. `starts`, `shuffles` and `weights` describe each group; the last partial group is
 * done one sample at a time from `before`/`after_weight`. */
__attribute__((target("ssse3"))) static void
shrink_row(const uint8_t *row, uint8_t *out, int dst_width, const int *starts, const __m128i *shuffles,
           const __m128i *weights, const int *before, const int *after_weight) {
    const __m128i rounding = _mm_set1_epi16(32);
    int groups = dst_width / 8, g = 0;
    for (; g + 2 <= groups; g += 2) {
        __m128i first = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(row + starts[g])), shuffles[g]);
        __m128i second = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(row + starts[g + 1])), shuffles[g + 1]);
        first = _mm_srli_epi16(_mm_add_epi16(_mm_maddubs_epi16(first, weights[g]), rounding), 6);
        second = _mm_srli_epi16(_mm_add_epi16(_mm_maddubs_epi16(second, weights[g + 1]), rounding), 6);
        _mm_storeu_si128((__m128i *)(out + 8 * g), _mm_packus_epi16(first, second));
    }
    for (int x = 8 * g; x < dst_width; x++) {
        const uint8_t *pair = row + before[x];
        out[x] = (uint8_t)((pair[0] * (64 - after_weight[x]) + pair[1] * after_weight[x] + 32) >> 6);
    }
}

int lw_bilinear_shrink_plane(const uint8_t *src, ptrdiff_t src_stride, int src_width, int src_height,
                             uint8_t *dst, ptrdiff_t dst_stride, int dst_width, int dst_height) {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("ssse3") || src_width < 2 || src_height < 2 || dst_width < 1 || dst_height < 1
        || dst_width > src_width || src_width >= 2 * dst_width || dst_height > src_height) return -1;
    int groups = dst_width / 8;
    int *before = malloc(sizeof(int) * (size_t)dst_width), *after_weight = malloc(sizeof(int) * (size_t)dst_width);
    int *starts = malloc(sizeof(int) * (size_t)(groups + 1));
    __m128i *shuffles = aligned_alloc(16, sizeof(__m128i) * (size_t)(groups + 1));
    __m128i *weights = aligned_alloc(16, sizeof(__m128i) * (size_t)(groups + 1));
    uint8_t *row = malloc((size_t)src_width + 32);  /* + room for a group's 16-byte load at the end */
    int result = -1;
    if (!before || !after_weight || !starts || !shuffles || !weights || !row) goto done;
    for (int x = 0; x < dst_width; x++) sample_position(x, dst_width, src_width, &before[x], &after_weight[x]);
    for (int g = 0; g < groups; g++) {
        uint8_t shuffle[16];
        int8_t weight[16];
        starts[g] = before[8 * g];
        for (int k = 0; k < 8; k++) {
            int offset = before[8 * g + k] - starts[g];
            if (offset > 14) goto done; /* cannot happen below a 2:1 shrink; never read past the load */
            shuffle[2 * k] = (uint8_t)offset;
            shuffle[2 * k + 1] = (uint8_t)(offset + 1);
            weight[2 * k] = (int8_t)(64 - after_weight[8 * g + k]);
            weight[2 * k + 1] = (int8_t)after_weight[8 * g + k];
        }
        shuffles[g] = _mm_loadu_si128((const __m128i *)shuffle);
        weights[g] = _mm_loadu_si128((const __m128i *)weight);
    }
    for (int x = src_width; x < src_width + 32; x++) row[x] = 0;
    for (int y = 0; y < dst_height; y++) {
        int above, below_weight;
        sample_position(y, dst_height, src_height, &above, &below_weight);
        const uint8_t *upper = src + (ptrdiff_t)above * src_stride;
        blend_rows(upper, upper + src_stride, below_weight, row, src_width);
        shrink_row(row, dst + (ptrdiff_t)y * dst_stride, dst_width, starts, shuffles, weights, before, after_weight);
    }
    result = 0;
done:
    free(before);
    free(after_weight);
    free(starts);
    free(shuffles);
    free(weights);
    free(row);
    return result;
}
#else
int lw_bilinear_shrink_plane(const uint8_t *src, ptrdiff_t src_stride, int src_width, int src_height,
                             uint8_t *dst, ptrdiff_t dst_stride, int dst_width, int dst_height) {
    (void)src; (void)src_stride; (void)src_width; (void)src_height;
    (void)dst; (void)dst_stride; (void)dst_width; (void)dst_height;
    return -1;
}
#endif
