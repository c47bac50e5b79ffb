/* The camera's session description checked and trimmed on GStreamer's SDP parser (GstSDPMessage),
 * the one webrtcbin reads it with, before webrtcbin sees it; and what StreamKit reads from our own. */
#include "CWebRTC.h"
#include "lw-sdp.h"

#include <stdlib.h>
#include <string.h>

/* GstSDPMessage skips lines it cannot read, so anything would parse: an HTML page as an empty
 * description. */
GstSDPMessage *lw_sdp_parse(const char *text) {
    GstSDPMessage *message = NULL;
    gst_sdp_message_new(&message);
    if (gst_sdp_message_parse_buffer((const guint8 *)text, strlen(text), message) != GST_SDP_OK
        || strncmp(text, "v=0", 3) != 0 || (text[3] != '\0' && text[3] != '\r' && text[3] != '\n')) {
        gst_sdp_message_free(message);
        return NULL;
    }
    return message;
}

/* The first video section, or NULL. */
static GstSDPMedia *lw_sdp_video(GstSDPMessage *message) {
    for (guint m = 0; m < gst_sdp_message_medias_len(message); m++) {
        GstSDPMedia *media = (GstSDPMedia *)gst_sdp_message_get_media(message, m);
        if (g_strcmp0(gst_sdp_media_get_media(media), "video") == 0) return media;
    }
    return NULL;
}

/* A payload type as written (digits only), or -1. */
static long lw_sdp_number(const char *text) {
    if (!text || !g_ascii_isdigit(*text)) return -1;
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return *end == '\0' && value <= G_MAXINT ? value : -1;
}

/* The payload type an rtpmap, fmtp or rtcp-fb attribute is about (its leading digits), or -1. */
static long lw_sdp_payload_of(const GstSDPAttribute *attribute) {
    if (strcmp(attribute->key, "rtpmap") != 0 && strcmp(attribute->key, "fmtp") != 0
        && strcmp(attribute->key, "rtcp-fb") != 0) return -1;
    const char *value = attribute->value ? attribute->value : "";
    if (!g_ascii_isdigit(*value)) return -1;
    return strtol(value, NULL, 10);
}

/* The codec an rtpmap value ("96 VP8/90000") names, 0 for any other; *name: its encoding name. */
static int lw_sdp_rtpmap_codec(const char *value, char **name) {
    const char *space = value ? strchr(value, ' ') : NULL;
    if (!space) return 0;
    char *encoding = g_ascii_strup(space + 1, strcspn(space + 1, "/ "));
    int codec = strcmp(encoding, "H264") == 0 ? LW_WEBRTC_H264 : strcmp(encoding, "VP8") == 0 ? LW_WEBRTC_VP8 : 0;
    if (name) *name = encoding;
    else g_free(encoding);
    return codec;
}

/* The encoding name `media` maps `payload` to (its last rtpmap), or NULL; *codec its codec. */
static const char *lw_sdp_rtpmap(const GstSDPMedia *media, long payload, int *codec) {
    const char *found = NULL;
    for (guint a = 0; payload >= 0 && a < gst_sdp_media_attributes_len(media); a++) {
        const GstSDPAttribute *attribute = gst_sdp_media_get_attribute(media, a);
        if (strcmp(attribute->key, "rtpmap") == 0 && lw_sdp_payload_of(attribute) == payload) found = attribute->value;
    }
    if (found) *codec = lw_sdp_rtpmap_codec(found, NULL);
    return found;
}

/* A candidate's fields, when it is over UDP at `address`: its component and priority. */
static gboolean lw_sdp_own_candidate(const GstSDPAttribute *attribute, const char *address, char **component,
                                     guint32 *priority) {
    if (strcmp(attribute->key, "candidate") != 0 || !attribute->value) return FALSE;
    char **fields = g_strsplit(attribute->value, " ", -1);
    gboolean own = g_strv_length(fields) >= 8 && g_ascii_strcasecmp(fields[2], "udp") == 0 && strcmp(fields[4], address) == 0;
    if (own) {
        *component = g_strdup(fields[1]);
        char *end = NULL;
        guint64 value = g_ascii_strtoull(fields[3], &end, 10);
        *priority = (*fields[3] && *end == '\0' && value <= G_MAXUINT32) ? (guint32)value : 0;
    }
    g_strfreev(fields);
    return own;
}

/* Keeps `media`'s UDP candidates at `address` only, the `per_component` of highest priority for each
 * component (the first listed when priorities tie); returns how many it kept. */
static guint lw_sdp_keep_candidates(GstSDPMedia *media, const char *address, guint per_component) {
    guint count = gst_sdp_media_attributes_len(media);
    char **components = g_new0(char *, count);
    guint32 *priorities = g_new0(guint32, count);
    gboolean *own = g_new0(gboolean, count);
    for (guint a = 0; a < count; a++) {
        own[a] = lw_sdp_own_candidate(gst_sdp_media_get_attribute(media, a), address, &components[a], &priorities[a]);
    }
    gboolean *keep = g_new0(gboolean, count);
    guint kept = 0;
    for (guint a = 0; a < count; a++) {
        if (!own[a]) continue;
        guint ahead = 0;
        for (guint b = 0; b < count && ahead < per_component; b++) {
            if (b == a || !own[b] || strcmp(components[a], components[b]) != 0) continue;
            if (priorities[b] > priorities[a] || (priorities[b] == priorities[a] && b < a)) ahead++;
        }
        keep[a] = ahead < per_component;
        if (keep[a]) kept++;
    }
    for (guint a = count; a-- > 0;) {
        if (strcmp(gst_sdp_media_get_attribute(media, a)->key, "candidate") == 0 && !keep[a]) {
            gst_sdp_media_remove_attribute(media, a);
        }
        g_free(components[a]);
    }
    g_free(components);
    g_free(priorities);
    g_free(own);
    g_free(keep);
    return kept;
}

/* `payload` among the formats of `offer`'s video section (none when it has none). */
static gboolean lw_sdp_offered(const GstSDPMedia *offer, long payload) {
    for (guint f = 0; offer && f < gst_sdp_media_formats_len(offer); f++) {
        if (lw_sdp_number(gst_sdp_media_get_format(offer, f)) == payload) return TRUE;
    }
    return FALSE;
}

/* Drops a video section's formats that are not payload types, or (when `answering`) not ones of
 * `offer`'s video section, with their rtpmap, fmtp and rtcp-fb lines; a payload's fmtp lines after
 * its first; and an x-google fmtp line beside another for its payload (Creality's quirks). */
static void lw_sdp_keep_formats(GstSDPMedia *media, gboolean answering, const GstSDPMedia *offer) {
    GArray *dropped = g_array_new(FALSE, FALSE, sizeof(long));
    for (guint f = gst_sdp_media_formats_len(media); f-- > 0;) {
        long payload = lw_sdp_number(gst_sdp_media_get_format(media, f));
        if (payload >= 0 && (!answering || lw_sdp_offered(offer, payload))) continue;
        if (payload >= 0) g_array_append_val(dropped, payload);
        gst_sdp_media_remove_format(media, f);
    }
    GArray *fmtp_seen = g_array_new(FALSE, FALSE, sizeof(long));
    for (guint a = 0; a < gst_sdp_media_attributes_len(media);) {
        const GstSDPAttribute *attribute = gst_sdp_media_get_attribute(media, a);
        long payload = lw_sdp_payload_of(attribute);
        gboolean drop = FALSE;
        for (guint d = 0; payload >= 0 && d < dropped->len; d++) drop |= g_array_index(dropped, long, d) == payload;
        if (!drop && payload >= 0 && strcmp(attribute->key, "fmtp") == 0) {
            guint lines = 0;
            for (guint b = 0; b < gst_sdp_media_attributes_len(media); b++) {
                const GstSDPAttribute *other = gst_sdp_media_get_attribute(media, b);
                if (strcmp(other->key, "fmtp") == 0 && lw_sdp_payload_of(other) == payload) lines++;
            }
            for (guint s = 0; s < fmtp_seen->len; s++) drop |= g_array_index(fmtp_seen, long, s) == payload;
            drop |= lines > 1 && attribute->value && strstr(attribute->value, "x-google");
            if (!drop) g_array_append_val(fmtp_seen, payload);
        }
        if (drop) gst_sdp_media_remove_attribute(media, a);
        else a++;
    }
    g_array_free(dropped, TRUE);
    g_array_free(fmtp_seen, TRUE);
}

/* The codec of `media`'s first format that is H.264 or VP8 (0 when none); *named: the encoding
 * names of its formats, comma-separated (NULL when none has an rtpmap). */
static int lw_sdp_decodable(const GstSDPMedia *media, char **named) {
    GString *names = g_string_new(NULL);
    int first = 0;
    for (guint f = 0; f < gst_sdp_media_formats_len(media); f++) {
        int codec = 0;
        const char *map = lw_sdp_rtpmap(media, lw_sdp_number(gst_sdp_media_get_format(media, f)), &codec);
        if (!map) continue;
        if (!first) first = codec;
        char *name = NULL;
        lw_sdp_rtpmap_codec(map, &name);
        if (name) g_string_append_printf(names, "%s%s", names->len ? ", " : "", name);
        g_free(name);
    }
    *named = names->len ? g_string_free(names, FALSE) : (g_string_free(names, TRUE), NULL);
    return first;
}

int lw_sdp_check(const char *text, const char *camera_address, const char *offer, unsigned per_component, char **checked,
                 int *codec, unsigned *candidates, char **named) {
    *checked = NULL;
    *named = NULL;
    *candidates = 0;
    *codec = 0;
    GstSDPMessage *message = lw_sdp_parse(text);
    if (!message) return LW_SDP_NOT_SDP;
    GstSDPMessage *ours = offer ? lw_sdp_parse(offer) : NULL;
    const GstSDPMedia *offered = ours ? lw_sdp_video(ours) : NULL;
    /* webrtcbin reads candidates from media sections only: a session-level one is dropped. */
    for (guint a = gst_sdp_message_attributes_len(message); a-- > 0;) {
        if (strcmp(gst_sdp_message_get_attribute(message, a)->key, "candidate") == 0) gst_sdp_message_remove_attribute(message, a);
    }
    for (guint m = 0; m < gst_sdp_message_medias_len(message); m++) {
        GstSDPMedia *media = (GstSDPMedia *)gst_sdp_message_get_media(message, m);
        *candidates += lw_sdp_keep_candidates(media, camera_address, per_component);
        if (g_strcmp0(gst_sdp_media_get_media(media), "video") == 0) lw_sdp_keep_formats(media, offer != NULL, offered);
    }
    if (ours) gst_sdp_message_free(ours);
    GstSDPMedia *video = lw_sdp_video(message);
    int result = LW_SDP_OK;
    if (!video) result = LW_SDP_NO_VIDEO;
    else if (!(*codec = lw_sdp_decodable(video, named))) result = LW_SDP_NO_CODEC;
    else if (*candidates == 0) result = LW_SDP_NO_CANDIDATE;
    if (result == LW_SDP_OK) *checked = gst_sdp_message_as_text(message);
    gst_sdp_message_free(message);
    return result;
}

int lw_sdp_first_codec(const char *sdp) {
    GstSDPMessage *message = lw_sdp_parse(sdp);
    if (!message) return 0;
    GstSDPMedia *video = lw_sdp_video(message);
    int codec = 0;
    if (video && gst_sdp_media_formats_len(video) > 0) {
        lw_sdp_rtpmap(video, lw_sdp_number(gst_sdp_media_get_format(video, 0)), &codec);
    }
    gst_sdp_message_free(message);
    return codec;
}

char *lw_sdp_candidate_addresses(const char *sdp) {
    GstSDPMessage *message = lw_sdp_parse(sdp);
    GString *addresses = g_string_new(NULL);
    for (guint m = 0; message && m < gst_sdp_message_medias_len(message); m++) {
        const GstSDPMedia *media = gst_sdp_message_get_media(message, m);
        for (guint a = 0; a < gst_sdp_media_attributes_len(media); a++) {
            const GstSDPAttribute *attribute = gst_sdp_media_get_attribute(media, a);
            if (strcmp(attribute->key, "candidate") != 0 || !attribute->value) continue;
            char **fields = g_strsplit(attribute->value, " ", -1);
            if (g_strv_length(fields) > 4) g_string_append_printf(addresses, "%s%s", addresses->len ? ", " : "", fields[4]);
            g_strfreev(fields);
        }
    }
    if (message) gst_sdp_message_free(message);
    return g_string_free(addresses, FALSE);
}
