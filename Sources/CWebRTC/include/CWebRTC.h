#ifndef LAYERWATCH_CWEBRTC_H
#define LAYERWATCH_CWEBRTC_H

#include <stddef.h>
#include <stdint.h>

/* A receive-only WebRTC peer on GStreamer's webrtcbin, for StreamKit's WebRTCInput. The calls
 * GStreamer only offers as signals, promises and variadic functions (which Swift cannot call) are
 * wrapped here; ICE, DTLS and SRTP are webrtcbin's (libnice, OpenSSL). Every wait polls
 * `should_stop(opaque)` about every 50 ms, as FFmpeg's interrupt callback is polled. Errors come
 * back as a newly allocated message (free with lw_webrtc_free_text). */

typedef struct LwWebRTC LwWebRTC;
typedef int (*lw_webrtc_should_stop)(void *opaque);

/* The codec of the access units lw_webrtc_pull gives. */
enum { LW_WEBRTC_H264 = 1, LW_WEBRTC_VP8 = 2 };
/* lw_webrtc_pull's and the waits' results. */
enum { LW_WEBRTC_OK = 0, LW_WEBRTC_STOPPED = 1, LW_WEBRTC_NOTHING = 2, LW_WEBRTC_ICE_FAILED = 3, LW_WEBRTC_ERROR = 4 };

/* A peer whose ICE gathers host candidates on `local_address` only (no STUN, TURN or TCP; every
 * interface when it is NULL, which StreamKit never asks for), with
 * `latency_ms` of jitter buffer, and a DTLS certificate of its own: a new ECDSA P-256 one, as
 * browsers have. NULL and *error when GStreamer or a plugin is missing. */
LwWebRTC *lw_webrtc_new(const char *local_address, unsigned latency_ms, char **error);
void lw_webrtc_free(LwWebRTC *peer);
void lw_webrtc_free_text(char *text);

/* Our offer (one receive-only video section: H.264, then VP8), once ICE gathering is complete so
 * it carries the candidates. */
int lw_webrtc_make_offer(LwWebRTC *peer, lw_webrtc_should_stop should_stop, void *opaque, char **sdp, char **error);
/* The camera's answer to our offer. */
int lw_webrtc_take_answer(LwWebRTC *peer, const char *sdp, char **error);
/* The camera's offer (camera-streamer), and our answer once gathering is complete. */
int lw_webrtc_answer_offer(LwWebRTC *peer, const char *offer, lw_webrtc_should_stop should_stop, void *opaque,
                           char **sdp, char **error);

/* The next access unit (H.264 byte-stream, or a VP8 frame), waiting for it up to `timeout_ms`:
 * OK with *data (free with lw_webrtc_free_text), NOTHING when none came in time, ICE_FAILED,
 * STOPPED, or ERROR with *error. */
int lw_webrtc_pull(LwWebRTC *peer, int timeout_ms, uint8_t **data, size_t *size, int64_t *pts_us, int *codec,
                   int *keyframe, char **error);

/* Whether ICE has connected (checking done, a pair chosen). */
int lw_webrtc_ice_connected(LwWebRTC *peer);

/* lw_sdp_check's results. */
enum { LW_SDP_OK = 0, LW_SDP_NOT_SDP = 1, LW_SDP_NO_VIDEO = 2, LW_SDP_NO_CODEC = 3, LW_SDP_NO_CANDIDATE = 4 };

/* The camera's description `text` (its offer, or its answer to our `offer` when that is not NULL),
 * checked and trimmed on GStreamer's SDP parser before webrtcbin sees it: in every media section only
 * UDP candidates at `camera_address` (numeric), the `per_component` of highest priority for each
 * component; in video sections only the payload formats `offer` has (all of them when it is NULL),
 * one fmtp line for each (an x-google duplicate dropped). OK with *checked (free with
 * lw_webrtc_free_text), *codec (the first H.264 or VP8 format's) and *candidates (how many kept);
 * NOT_SDP, NO_VIDEO, NO_CANDIDATE, or NO_CODEC with *named (the video formats' encoding names,
 * comma-separated; NULL when none is named). */
int lw_sdp_check(const char *text, const char *camera_address, const char *offer, unsigned per_component, char **checked,
                 int *codec, unsigned *candidates, char **named);
/* The codec of the first format of `sdp`'s video section (Layerwatch's own answer); 0 when it is
 * neither H.264 nor VP8. */
int lw_sdp_first_codec(const char *sdp);
/* The addresses of `sdp`'s candidates, comma-separated, for the log (free with lw_webrtc_free_text). */
char *lw_sdp_candidate_addresses(const char *sdp);

/* The address this host sends from to reach `host` (the route's source address), so ICE gathers on
 * that interface only; NULL when the host cannot be resolved. */
char *lw_webrtc_route_source(const char *host);

/* `host`'s first address, numeric; NULL when it cannot be resolved. */
char *lw_webrtc_resolve(const char *host);

#endif
