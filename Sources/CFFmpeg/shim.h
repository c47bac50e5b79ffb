#ifndef LAYERWATCH_CFFMPEG_SHIM_H
#define LAYERWATCH_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/dict.h>
#include <libavutil/log.h>
#include <libavutil/md5.h>

/* Function-like macros Swift cannot import, re-exported as inline functions. */
static inline int lw_averror(int posix) { return AVERROR(posix); }
static inline int lw_averror_eof(void) { return AVERROR_EOF; }
static inline int lw_averror_exit(void) { return AVERROR_EXIT; }
static inline int lw_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int lw_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int lw_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int lw_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int lw_averror_protocol_not_found(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
static inline int lw_averror_http_bad_request(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int lw_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int lw_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int lw_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int lw_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int lw_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }
static inline int64_t lw_nopts_value(void) { return AV_NOPTS_VALUE; }

#endif
