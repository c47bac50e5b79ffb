#define GST_USE_UNSTABLE_API 1
#include "CWebRTC.h"
#include "lw-dtls-certificate.h"
#include "lw-sdp.h"

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>

#include <arpa/inet.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct LwWebRTC {
    GstElement *pipeline;
    GstElement *webrtc;
    GstElement *sink;
    /* This connection's DTLS certificate and key (PEM), given to each DTLS transport webrtcbin makes,
     * and the certificate's fingerprint as the SDP says it. */
    char *certificate;
    char *fingerprint;
    GMutex lock;
    int codec;
    gboolean linked;
    gboolean ice_failed;
};

static gboolean lw_gst_ready(char **error) {
    static gsize once = 0;
    static gboolean ready = FALSE;
    static char *failure = NULL;
    if (g_once_init_enter(&once)) {
        GError *err = NULL;
        ready = gst_init_check(NULL, NULL, &err);
        if (!ready) failure = g_strdup_printf("GStreamer could not start: %s", err ? err->message : "?");
        g_clear_error(&err);
        g_once_init_leave(&once, 1);
    }
    if (!ready && error) *error = g_strdup(failure);
    return ready;
}

void lw_webrtc_free_text(char *text) { g_free(text); }

static void on_ice_state(GObject *webrtc, GParamSpec *spec, gpointer data) {
    (void)spec;
    LwWebRTC *peer = data;
    GstWebRTCICEConnectionState state;
    g_object_get(webrtc, "ice-connection-state", &state, NULL);
    if (state == GST_WEBRTC_ICE_CONNECTION_STATE_FAILED) {
        g_mutex_lock(&peer->lock);
        peer->ice_failed = TRUE;
        g_mutex_unlock(&peer->lock);
    }
}

/* A stream webrtcbin decrypted: H.264 goes through rtph264depay and h264parse into access units,
 * VP8 through rtpvp8depay into frames; anything else is left unlinked (and no picture comes). */
static void on_pad_added(GstElement *webrtc, GstPad *pad, gpointer data) {
    (void)webrtc;
    LwWebRTC *peer = data;
    if (GST_PAD_DIRECTION(pad) != GST_PAD_SRC) return;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) caps = gst_pad_query_caps(pad, NULL);
    const GstStructure *s = gst_caps_get_structure(caps, 0);
    const char *name = gst_structure_get_string(s, "encoding-name");
    const char *media = gst_structure_get_string(s, "media");
    int codec = 0;
    if (media && strcmp(media, "video") == 0 && name) {
        if (g_ascii_strcasecmp(name, "H264") == 0) codec = LW_WEBRTC_H264;
        else if (g_ascii_strcasecmp(name, "VP8") == 0) codec = LW_WEBRTC_VP8;
    }
    gst_caps_unref(caps);
    g_mutex_lock(&peer->lock);
    gboolean taken = peer->linked || codec == 0;
    if (!taken) peer->linked = TRUE;
    g_mutex_unlock(&peer->lock);
    if (taken) return;

    GstElement *first, *last;
    GstCaps *out;
    if (codec == LW_WEBRTC_H264) {
        first = gst_element_factory_make("rtph264depay", NULL);
        last = gst_element_factory_make("h264parse", NULL);
        if (!first || !last) {
            if (first) gst_object_unref(gst_object_ref_sink(first));
            if (last) gst_object_unref(gst_object_ref_sink(last));
            return;
        }
        /* A keyframe asked for (PLI) when packets are lost, and nothing handed on before one. */
        g_object_set(first, "request-keyframe", TRUE, "wait-for-keyframe", TRUE, NULL);
        /* SPS/PPS before every IDR, so the decoder can start at any keyframe. */
        g_object_set(last, "config-interval", -1, NULL);
        out = gst_caps_from_string("video/x-h264,stream-format=byte-stream,alignment=au");
        gst_bin_add_many(GST_BIN(peer->pipeline), first, last, NULL);
        gst_element_link(first, last);
    } else {
        first = gst_element_factory_make("rtpvp8depay", NULL);
        if (!first) return;
        g_object_set(first, "request-keyframe", TRUE, "wait-for-keyframe", TRUE, NULL);
        last = first;
        out = gst_caps_from_string("video/x-vp8");
        gst_bin_add(GST_BIN(peer->pipeline), first);
    }
    g_object_set(peer->sink, "caps", out, NULL);
    gst_caps_unref(out);
    g_mutex_lock(&peer->lock);
    peer->codec = codec;
    g_mutex_unlock(&peer->lock);
    gst_element_link(last, peer->sink);
    gst_element_sync_state_with_parent(first);
    if (last != first) gst_element_sync_state_with_parent(last);
    GstPad *sinkpad = gst_element_get_static_pad(first, "sink");
    gst_pad_link(pad, sinkpad);
    gst_object_unref(sinkpad);
}

/* A transport's bins as webrtcbin adds them: their DTLS decoder (which owns the transport's DTLS
 * connection and whose certificate the SDP fingerprint is made from) takes our certificate while it
 * is still unstarted, before the fingerprint is read and before the encoder takes the connection. */
static void on_element_added(GstBin *webrtc, GstElement *element, gpointer data) {
    (void)webrtc;
    LwWebRTC *peer = data;
    if (!peer->certificate || !GST_IS_BIN(element)) return;
    GstIterator *decoders = gst_bin_iterate_all_by_element_factory_name(GST_BIN(element), "dtlssrtpdec");
    GValue item = G_VALUE_INIT;
    while (gst_iterator_next(decoders, &item) == GST_ITERATOR_OK) {
        g_object_set(g_value_get_object(&item), "pem", peer->certificate, NULL);
        g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(decoders);
}

LwWebRTC *lw_webrtc_new(const char *local_address, unsigned latency_ms, char **error) {
    if (!lw_gst_ready(error)) return NULL;
    GstElement *webrtc = gst_element_factory_make("webrtcbin", NULL);
    GstElement *sink = gst_element_factory_make("appsink", NULL);
    if (!webrtc || !sink) {
        if (webrtc) gst_object_unref(gst_object_ref_sink(webrtc));
        if (sink) gst_object_unref(gst_object_ref_sink(sink));
        *error = g_strdup("WebRTC (GStreamer's webrtcbin is missing: install gstreamer1.0-plugins-bad and gstreamer1.0-nice)");
        return NULL;
    }
    LwWebRTC *peer = g_new0(LwWebRTC, 1);
    /* Without one (OpenSSL out of memory), GStreamer's own RSA certificate still serves older peers. */
    peer->certificate = lw_dtls_certificate_new(&peer->fingerprint);
    if (!peer->certificate) g_warning("WebRTC: no ECDSA certificate could be made; GStreamer's RSA one is used");
    g_mutex_init(&peer->lock);
    peer->pipeline = gst_pipeline_new(NULL);
    peer->webrtc = webrtc;
    peer->sink = sink;
    /* No STUN or TURN server is set: host candidates only, over UDP. */
    g_object_set(webrtc, "bundle-policy", GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, "latency", latency_ms, NULL);
    GObject *ice = NULL;
    g_object_get(webrtc, "ice-agent", &ice, NULL);
    if (ice) {
        g_object_set(ice, "ice-tcp", FALSE, "ice-udp", TRUE, NULL);
        if (local_address) {
            gboolean added = FALSE;
            g_signal_emit_by_name(ice, "add-local-ip-address", local_address, &added);
        }
        g_object_unref(ice);
    }
    /* Live: no clock sync, and a short queue the session thread empties. */
    g_object_set(sink, "sync", FALSE, "max-buffers", 64, "drop", TRUE, "emit-signals", FALSE, NULL);
    gst_bin_add_many(GST_BIN(peer->pipeline), webrtc, sink, NULL);
    g_signal_connect(webrtc, "element-added", G_CALLBACK(on_element_added), peer);
    g_signal_connect(webrtc, "pad-added", G_CALLBACK(on_pad_added), peer);
    g_signal_connect(webrtc, "notify::ice-connection-state", G_CALLBACK(on_ice_state), peer);
    if (gst_element_set_state(peer->pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        *error = g_strdup("GStreamer could not start the WebRTC pipeline");
        lw_webrtc_free(peer);
        return NULL;
    }
    return peer;
}

void lw_webrtc_free(LwWebRTC *peer) {
    if (!peer) return;
    gst_element_set_state(peer->pipeline, GST_STATE_NULL);
    gst_object_unref(peer->pipeline);
    g_free(peer->certificate);
    g_free(peer->fingerprint);
    g_mutex_clear(&peer->lock);
    g_free(peer);
}

/* A promise's reply, waited for with a stop check (gst_promise_wait has no timeout). */
typedef struct {
    GMutex lock;
    GCond changed;
    gboolean done;
} LwReply;

static void lw_replied(GstPromise *promise, gpointer data) {
    (void)promise;
    LwReply *reply = data;
    g_mutex_lock(&reply->lock);
    reply->done = TRUE;
    g_cond_broadcast(&reply->changed);
    g_mutex_unlock(&reply->lock);
}

/* Emits `signal` on webrtcbin with `argument` and a promise, and waits for the reply: its structure
 * (owned by the promise, which is returned in *out) or NULL with a STOPPED or ERROR result. */
static int lw_call(LwWebRTC *peer, const char *signal, gpointer argument, lw_webrtc_should_stop should_stop,
                   void *opaque, GstPromise **out, char **error) {
    LwReply reply;
    g_mutex_init(&reply.lock);
    g_cond_init(&reply.changed);
    reply.done = FALSE;
    GstPromise *promise = gst_promise_new_with_change_func(lw_replied, &reply, NULL);
    g_signal_emit_by_name(peer->webrtc, signal, argument, promise);
    int result = LW_WEBRTC_OK;
    g_mutex_lock(&reply.lock);
    while (!reply.done) {
        if (should_stop && should_stop(opaque)) {
            result = LW_WEBRTC_STOPPED;
            break;
        }
        g_cond_wait_until(&reply.changed, &reply.lock, g_get_monotonic_time() + 50 * G_TIME_SPAN_MILLISECOND);
    }
    g_mutex_unlock(&reply.lock);
    if (result == LW_WEBRTC_STOPPED) {
        /* Calls the change function now, so nothing touches `reply` once it is gone. */
        gst_promise_interrupt(promise);
    } else if (gst_promise_wait(promise) != GST_PROMISE_RESULT_REPLIED) {
        result = LW_WEBRTC_ERROR;
        *error = g_strdup_printf("WebRTC %s gave no answer", signal);
    } else {
        const GstStructure *s = gst_promise_get_reply(promise);
        GError *failure = NULL;
        if (s && gst_structure_get(s, "error", G_TYPE_ERROR, &failure, NULL) && failure) {
            *error = g_strdup(failure->message);
            g_error_free(failure);
            result = LW_WEBRTC_ERROR;
        }
    }
    g_mutex_clear(&reply.lock);
    g_cond_clear(&reply.changed);
    if (result == LW_WEBRTC_OK && out) *out = promise;
    else gst_promise_unref(promise);
    return result;
}

/* A description webrtcbin made (the "offer" or "answer" field of `promise`), set as the local one. */
static int lw_set_local(LwWebRTC *peer, GstPromise *promise, const char *field, lw_webrtc_should_stop should_stop,
                        void *opaque, char **error) {
    GstWebRTCSessionDescription *description = NULL;
    const GstStructure *s = gst_promise_get_reply(promise);
    if (s) gst_structure_get(s, field, GST_TYPE_WEBRTC_SESSION_DESCRIPTION, &description, NULL);
    gst_promise_unref(promise);
    if (!description) {
        *error = g_strdup_printf("WebRTC made no %s", field);
        return LW_WEBRTC_ERROR;
    }
    int result = lw_call(peer, "set-local-description", description, should_stop, opaque, NULL, error);
    gst_webrtc_session_description_free(description);
    return result;
}

/* Our certificate's fingerprint in every media section of `sdp`. webrtcbin (1.22) makes the one it
 * writes from every base64 line of the transport's PEM, which holds our private key too. */
static void lw_put_fingerprint(LwWebRTC *peer, GstSDPMessage *sdp) {
    if (!peer->fingerprint) return;
    for (guint m = 0; m < gst_sdp_message_medias_len(sdp); m++) {
        GstSDPMedia *media = (GstSDPMedia *)gst_sdp_message_get_media(sdp, m);
        for (guint a = 0; a < gst_sdp_media_attributes_len(media); a++) {
            if (g_strcmp0(gst_sdp_media_get_attribute(media, a)->key, "fingerprint") != 0) continue;
            GstSDPAttribute ours;
            gst_sdp_attribute_set(&ours, "fingerprint", peer->fingerprint);
            gst_sdp_media_replace_attribute(media, a, &ours);
        }
    }
}

/* The local description once ICE gathering is complete, so it lists every candidate. */
static int lw_gathered_local(LwWebRTC *peer, lw_webrtc_should_stop should_stop, void *opaque, char **sdp, char **error) {
    for (int waited = 0;; waited += 20) {
        GstWebRTCICEGatheringState state;
        g_object_get(peer->webrtc, "ice-gathering-state", &state, NULL);
        if (state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE) break;
        if (should_stop && should_stop(opaque)) return LW_WEBRTC_STOPPED;
        /* Host candidates gather in milliseconds; a backstop if libnice never says it is done. */
        if (waited > 10000) break;
        g_usleep(20 * 1000);
    }
    GstWebRTCSessionDescription *local = NULL;
    g_object_get(peer->webrtc, "local-description", &local, NULL);
    if (!local) {
        *error = g_strdup("WebRTC has no local description");
        return LW_WEBRTC_ERROR;
    }
    lw_put_fingerprint(peer, local->sdp);
    *sdp = gst_sdp_message_as_text(local->sdp);
    gst_webrtc_session_description_free(local);
    return LW_WEBRTC_OK;
}

int lw_webrtc_make_offer(LwWebRTC *peer, lw_webrtc_should_stop should_stop, void *opaque, char **sdp, char **error) {
    /* H.264 first (what cameras send; FFmpeg decodes it), VP8 for cameras that send only that.
     * Constrained baseline 3.1 with packetization-mode 1 is what every WebRTC H.264 peer accepts. */
    GstCaps *caps = gst_caps_from_string(
        "application/x-rtp,media=video,encoding-name=H264,payload=102,clock-rate=90000,"
        "packetization-mode=(string)1,profile-level-id=(string)42e01f,level-asymmetry-allowed=(string)1,"
        "rtcp-fb-nack-pli=(boolean)true;"
        "application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000,rtcp-fb-nack-pli=(boolean)true");
    GstWebRTCRTPTransceiver *transceiver = NULL;
    g_signal_emit_by_name(peer->webrtc, "add-transceiver", GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_RECVONLY, caps,
                          &transceiver);
    gst_caps_unref(caps);
    if (transceiver) gst_object_unref(transceiver);
    GstPromise *made = NULL;
    int result = lw_call(peer, "create-offer", NULL, should_stop, opaque, &made, error);
    if (result == LW_WEBRTC_OK) result = lw_set_local(peer, made, "offer", should_stop, opaque, error);
    if (result == LW_WEBRTC_OK) result = lw_gathered_local(peer, should_stop, opaque, sdp, error);
    return result;
}

/* `text` (checked by lw_sdp_check) as a session description of `type`; NULL with *error when it is
 * not SDP. */
static GstWebRTCSessionDescription *lw_description(const char *text, GstWebRTCSDPType type, char **error) {
    GstSDPMessage *message = lw_sdp_parse(text);
    if (!message || gst_sdp_message_medias_len(message) == 0) {
        if (message) gst_sdp_message_free(message);
        *error = g_strdup("the answer is not a session description");
        return NULL;
    }
    return gst_webrtc_session_description_new(type, message);
}

int lw_webrtc_take_answer(LwWebRTC *peer, const char *sdp, char **error) {
    GstWebRTCSessionDescription *answer = lw_description(sdp, GST_WEBRTC_SDP_TYPE_ANSWER, error);
    if (!answer) return LW_WEBRTC_ERROR;
    int result = lw_call(peer, "set-remote-description", answer, NULL, NULL, NULL, error);
    gst_webrtc_session_description_free(answer);
    return result;
}

int lw_webrtc_answer_offer(LwWebRTC *peer, const char *offer, lw_webrtc_should_stop should_stop, void *opaque,
                           char **sdp, char **error) {
    GstWebRTCSessionDescription *remote = lw_description(offer, GST_WEBRTC_SDP_TYPE_OFFER, error);
    if (!remote) return LW_WEBRTC_ERROR;
    int result = lw_call(peer, "set-remote-description", remote, should_stop, opaque, NULL, error);
    gst_webrtc_session_description_free(remote);
    GstPromise *made = NULL;
    if (result == LW_WEBRTC_OK) result = lw_call(peer, "create-answer", NULL, should_stop, opaque, &made, error);
    if (result == LW_WEBRTC_OK) result = lw_set_local(peer, made, "answer", should_stop, opaque, error);
    if (result == LW_WEBRTC_OK) result = lw_gathered_local(peer, should_stop, opaque, sdp, error);
    return result;
}

/* The first error the pipeline posted (a DTLS handshake that failed, a decryption error), if any.
 * Every other message is dropped here: nothing else reads this bus, which would otherwise keep them
 * all for as long as the camera plays. */
static char *lw_pipeline_error(LwWebRTC *peer) {
    GstBus *bus = gst_element_get_bus(peer->pipeline);
    char *text = NULL;
    GstMessage *message;
    while (!text && (message = gst_bus_pop(bus))) {
        if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
            GError *failure = NULL;
            gst_message_parse_error(message, &failure, NULL);
            text = g_strdup(failure ? failure->message : "GStreamer error");
            g_clear_error(&failure);
        }
        gst_message_unref(message);
    }
    gst_object_unref(bus);
    return text;
}

int lw_webrtc_pull(LwWebRTC *peer, int timeout_ms, uint8_t **data, size_t *size, int64_t *pts_us, int *codec,
                   int *keyframe, char **error) {
    g_mutex_lock(&peer->lock);
    gboolean failed = peer->ice_failed;
    *codec = peer->codec;
    g_mutex_unlock(&peer->lock);
    if (failed) return LW_WEBRTC_ICE_FAILED;
    char *posted = lw_pipeline_error(peer);
    if (posted) {
        *error = posted;
        return LW_WEBRTC_ERROR;
    }
    GstSample *sample = gst_app_sink_try_pull_sample(GST_APP_SINK(peer->sink), (GstClockTime)timeout_ms * GST_MSECOND);
    if (!sample) return LW_WEBRTC_NOTHING;
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstMapInfo map;
    if (!buffer || !gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        gst_sample_unref(sample);
        return LW_WEBRTC_NOTHING;
    }
    *data = g_memdup2(map.data, map.size);
    *size = map.size;
    GstClockTime pts = GST_BUFFER_PTS(buffer);
    *pts_us = GST_CLOCK_TIME_IS_VALID(pts) ? (int64_t)(pts / GST_USECOND) : -1;
    *keyframe = !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
    gst_buffer_unmap(buffer, &map);
    gst_sample_unref(sample);
    g_mutex_lock(&peer->lock);
    *codec = peer->codec;
    g_mutex_unlock(&peer->lock);
    return LW_WEBRTC_OK;
}

int lw_webrtc_ice_connected(LwWebRTC *peer) {
    GstWebRTCICEConnectionState state;
    g_object_get(peer->webrtc, "ice-connection-state", &state, NULL);
    return state == GST_WEBRTC_ICE_CONNECTION_STATE_CONNECTED || state == GST_WEBRTC_ICE_CONNECTION_STATE_COMPLETED;
}

char *lw_webrtc_resolve(const char *host) {
    struct addrinfo hints = {0}, *found = NULL;
    hints.ai_socktype = SOCK_DGRAM;
    if (getaddrinfo(host, NULL, &hints, &found) != 0 || !found) return NULL;
    char buffer[INET6_ADDRSTRLEN];
    char *text = NULL;
    if (getnameinfo(found->ai_addr, found->ai_addrlen, buffer, sizeof buffer, NULL, 0, NI_NUMERICHOST) == 0) {
        text = g_strdup(buffer);
    }
    freeaddrinfo(found);
    return text;
}

char *lw_webrtc_route_source(const char *host) {
    struct addrinfo hints = {0}, *found = NULL;
    hints.ai_socktype = SOCK_DGRAM;
    if (getaddrinfo(host, "9", &hints, &found) != 0 || !found) return NULL;
    char *text = NULL;
    /* A UDP socket's connect sends nothing: it only asks the kernel which route, so which source. */
    int fd = socket(found->ai_family, SOCK_DGRAM, 0);
    if (fd >= 0 && connect(fd, found->ai_addr, found->ai_addrlen) == 0) {
        struct sockaddr_storage local;
        socklen_t length = sizeof local;
        char buffer[INET6_ADDRSTRLEN];
        if (getsockname(fd, (struct sockaddr *)&local, &length) == 0
            && getnameinfo((struct sockaddr *)&local, length, buffer, sizeof buffer, NULL, 0, NI_NUMERICHOST) == 0) {
            text = g_strdup(buffer);
        }
    }
    if (fd >= 0) close(fd);
    freeaddrinfo(found);
    return text;
}
