#include "CWebSocketGuard.h"

#include <gio/gio.h>
#include <string.h>

/* Bytes taken from the socket at once: past the control frames' budget, a flood is read at most one
 * such chunk a `pause`. */
#define CHUNK (64 * 1024)
/* The longest server frame header: 2 bytes, then a 64-bit length (no mask: a masked frame is
 * refused on its second byte). */
#define HEADER_MAX 10

G_DEFINE_QUARK(lw-websocket-guard-error-quark, lw_websocket_guard_error)

/* The limits of the process's sessions (set by the first). */
static LwWebsocketGuardLimits session_limits;

static double now_seconds(void) { return (double)g_get_monotonic_time() / 1e6; }

/* Where the bytes stand: the HTTP answer's head, frames (a header, then its payload), or anything
 * untouched after an answer that is not 101. */
typedef enum { PHASE_HEAD, PHASE_HEADER, PHASE_PAYLOAD, PHASE_UNTOUCHED } Phase;

typedef struct {
    GFilterInputStream parent;
    LwWebsocketGuardLimits limits;
    Phase phase;
    /* The head: the first bytes (for the status code) and how far "\r\n\r\n" has matched. */
    guint8 status[12];
    gsize head_length, crlf;
    /* The frame header under way, and the payload bytes of the current frame still to come. */
    guint8 header[HEADER_MAX];
    gsize header_length;
    guint64 payload_left;
    gboolean passing;
    /* A fragmented message under way and its bytes so far. */
    gboolean in_message;
    guint64 message_size;
    /* The control frames of the current second, the last ping passed on, and when the socket may be
     * read again. */
    double window_start, last_ping, next_read;
    int counted;
    /* The refusal that ended the frames, returned once the bytes before it are handed over. */
    GError *failure;
    /* A chunk from the socket, and the bytes for libsoup from `out_start` to `out_length` (on the
     * heap: a GObject instance is at most 64 KiB). */
    guint8 *in, *out;
    gsize out_start, out_length;
} LwGuardInput;
typedef GFilterInputStreamClass LwGuardInputClass;

static void lw_guard_input_pollable_init(GPollableInputStreamInterface *iface);
G_DEFINE_TYPE_WITH_CODE(LwGuardInput, lw_guard_input, G_TYPE_FILTER_INPUT_STREAM,
                        G_IMPLEMENT_INTERFACE(G_TYPE_POLLABLE_INPUT_STREAM, lw_guard_input_pollable_init))

static GInputStream *base_of(LwGuardInput *guard) {
    return g_filter_input_stream_get_base_stream(G_FILTER_INPUT_STREAM(guard));
}

static gboolean refuse(GError **error, LwWebsocketGuardError code, guint64 size) {
    g_set_error(error, lw_websocket_guard_error_quark(), code, "%" G_GUINT64_FORMAT, size);
    return FALSE;
}

/* The header's length once its first two bytes are here, or 0 before. */
static gsize header_size(const LwGuardInput *guard) {
    if (guard->header_length < 2) return 0;
    guint8 length = guard->header[1] & 0x7f;
    return length == 126 ? 4 : length == 127 ? 10 : 2;
}

/* Checks the first two bytes of a frame: what RFC 6455 forbids a server (§5.2, §5.5). */
static gboolean check_start(const LwGuardInput *guard, GError **error) {
    guint8 first = guard->header[0], second = guard->header[1], opcode = first & 0x0f;
    if (first & 0x70) return refuse(error, LW_WEBSOCKET_GUARD_RESERVED_BITS, 0);
    if (opcode > 0xa || (opcode > 2 && opcode < 8)) return refuse(error, LW_WEBSOCKET_GUARD_UNKNOWN_KIND, 0);
    if (second & 0x80) return refuse(error, LW_WEBSOCKET_GUARD_MASKED, 0);
    if ((opcode & 0x8) && (!(first & 0x80) || (second & 0x7f) > 125)) return refuse(error, LW_WEBSOCKET_GUARD_BAD_CONTROL, 0);
    return TRUE;
}

/* Decides a whole header's frame: passed on or dropped (a ping within the spacing), a text
 * message made binary, a message's size counted and capped. */
static gboolean take_header(LwGuardInput *guard, GError **error) {
    guint8 *header = guard->header, opcode = header[0] & 0x0f;
    gboolean final = (header[0] & 0x80) != 0;
    guint64 length = header[1] & 0x7f;
    if (guard->header_length > 2) {
        length = 0;
        for (gsize index = 2; index < guard->header_length; index++) length = length << 8 | header[index];
    }
    guard->payload_left = length;
    guard->passing = TRUE;
    if (opcode & 0x8) {
        double now = now_seconds();
        if (now - guard->window_start >= 1) {
            guard->window_start = now;
            guard->counted = 0;
        }
        guard->counted++;
        if (opcode == 0x9) {
            guard->passing = now - guard->last_ping >= guard->limits.ping_spacing;
            if (guard->passing) guard->last_ping = now;
        }
        return TRUE;
    }
    if (opcode == 0) {
        if (!guard->in_message) return refuse(error, LW_WEBSOCKET_GUARD_ORPHAN_CONTINUATION, 0);
        guard->message_size = length > G_MAXUINT64 - guard->message_size ? G_MAXUINT64 : guard->message_size + length;
    } else {
        if (guard->in_message) return refuse(error, LW_WEBSOCKET_GUARD_NESTED_MESSAGE, 0);
        guard->message_size = length;
        header[0] = (header[0] & 0xf0) | 0x2;
    }
    if (guard->message_size > guard->limits.max_message) return refuse(error, LW_WEBSOCKET_GUARD_TOO_BIG, guard->message_size);
    guard->in_message = !final;
    return TRUE;
}

static void put(LwGuardInput *guard, const guint8 *bytes, gsize count) {
    memcpy(guard->out + guard->out_length, bytes, count);
    guard->out_length += count;
}

/* Runs `count` bytes from the socket through the guard into `out` (empty before: a chunk's output
 * is at most the chunk and a header begun in the chunk before), up to a refusal (in `failure`). */
static void take(LwGuardInput *guard, gsize count) {
    GError **error = &guard->failure;
    const guint8 *in = guard->in;
    gsize index = 0;
    while (index < count) {
        switch (guard->phase) {
        case PHASE_HEAD: {
            guint8 byte = in[index++];
            put(guard, &byte, 1);
            if (guard->head_length < sizeof guard->status) guard->status[guard->head_length] = byte;
            guard->head_length++;
            guard->crlf = byte == "\r\n\r\n"[guard->crlf] ? guard->crlf + 1 : byte == '\r' ? 1 : 0;
            if (guard->crlf == 4) {
                gboolean switched = guard->head_length > sizeof guard->status && memcmp(guard->status, "HTTP/1.1 101", 12) == 0;
                guard->phase = switched ? PHASE_HEADER : PHASE_UNTOUCHED;
            }
            break;
        }
        case PHASE_UNTOUCHED:
            put(guard, in + index, count - index);
            index = count;
            break;
        case PHASE_HEADER: {
            guard->header[guard->header_length++] = in[index++];
            if (guard->header_length == 2 && !check_start(guard, error)) return;
            gsize size = header_size(guard);
            if (size == 0 || guard->header_length < size) break;
            if (!take_header(guard, error)) return;
            if (guard->passing) put(guard, guard->header, guard->header_length);
            guard->header_length = 0;
            if (guard->payload_left > 0) guard->phase = PHASE_PAYLOAD;
            break;
        }
        case PHASE_PAYLOAD: {
            gsize part = (gsize)MIN((guint64)(count - index), guard->payload_left);
            if (guard->passing) put(guard, in + index, part);
            index += part;
            guard->payload_left -= part;
            if (guard->payload_left == 0) guard->phase = PHASE_HEADER;
            break;
        }
        }
    }
    /* Past the second's control frames, the next read waits `pause` (Swift's ControlFrameBudget). */
    double now = now_seconds();
    if (guard->counted > guard->limits.control_frames && now - guard->window_start < 1) guard->next_read = now + guard->limits.pause;
}

/* Hands over what the guard holds, up to `count` bytes. */
static gssize hand_over(LwGuardInput *guard, void *buffer, gsize count) {
    gsize part = MIN(count, guard->out_length - guard->out_start);
    memcpy(buffer, guard->out + guard->out_start, part);
    guard->out_start += part;
    if (guard->out_start == guard->out_length) guard->out_start = guard->out_length = 0;
    return (gssize)part;
}

static gssize lw_guard_input_read_nonblocking(GPollableInputStream *stream, void *buffer, gsize count, GError **error) {
    LwGuardInput *guard = (LwGuardInput *)stream;
    /* A chunk that was all dropped pings leaves nothing: read on, until the socket or the pause says wait. */
    while (guard->out_length == 0) {
        if (guard->failure != NULL) {
            g_propagate_error(error, g_error_copy(guard->failure));
            return -1;
        }
        if (now_seconds() < guard->next_read) {
            g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK, "paused");
            return -1;
        }
        gssize got = g_pollable_input_stream_read_nonblocking(G_POLLABLE_INPUT_STREAM(base_of(guard)), guard->in, CHUNK, NULL, error);
        if (got <= 0) return got;
        take(guard, (gsize)got);
    }
    return hand_over(guard, buffer, count);
}

static gssize lw_guard_input_read(GInputStream *stream, void *buffer, gsize count, GCancellable *cancellable, GError **error) {
    LwGuardInput *guard = (LwGuardInput *)stream;
    while (guard->out_length == 0) {
        if (guard->failure != NULL) {
            g_propagate_error(error, g_error_copy(guard->failure));
            return -1;
        }
        double wait = guard->next_read - now_seconds();
        if (wait > 0) g_usleep((gulong)(wait * 1e6));
        gssize got = g_input_stream_read(base_of(guard), guard->in, CHUNK, cancellable, error);
        if (got <= 0) return got;
        take(guard, (gsize)got);
    }
    return hand_over(guard, buffer, count);
}

static gboolean lw_guard_input_can_poll(GPollableInputStream *stream) { return TRUE; }

static gboolean lw_guard_input_is_readable(GPollableInputStream *stream) {
    LwGuardInput *guard = (LwGuardInput *)stream;
    if (guard->out_length > 0 || guard->failure != NULL) return TRUE;
    return now_seconds() >= guard->next_read && g_pollable_input_stream_is_readable(G_POLLABLE_INPUT_STREAM(base_of(guard)));
}

static GSource *lw_guard_input_create_source(GPollableInputStream *stream, GCancellable *cancellable) {
    LwGuardInput *guard = (LwGuardInput *)stream;
    gboolean ready = guard->out_length > 0 || guard->failure != NULL;
    double wait = ready ? 0 : guard->next_read - now_seconds();
    GSource *inner = ready || wait > 0
                         ? g_timeout_source_new(wait > 0 ? (guint)(wait * 1000) + 1 : 0)
                         : g_pollable_input_stream_create_source(G_POLLABLE_INPUT_STREAM(base_of(guard)), cancellable);
    GSource *source = g_pollable_source_new_full(stream, inner, cancellable);
    g_source_unref(inner);
    return source;
}

static void lw_guard_input_pollable_init(GPollableInputStreamInterface *iface) {
    iface->can_poll = lw_guard_input_can_poll;
    iface->is_readable = lw_guard_input_is_readable;
    iface->create_source = lw_guard_input_create_source;
    iface->read_nonblocking = lw_guard_input_read_nonblocking;
}

static void lw_guard_input_init(LwGuardInput *guard) {
    guard->in = g_malloc(CHUNK);
    guard->out = g_malloc(CHUNK + HEADER_MAX);
    guard->last_ping = -1e9;
}

static void lw_guard_input_finalize(GObject *object) {
    LwGuardInput *guard = (LwGuardInput *)object;
    g_free(guard->in);
    g_free(guard->out);
    g_clear_error(&guard->failure);
    G_OBJECT_CLASS(lw_guard_input_parent_class)->finalize(object);
}

static void lw_guard_input_class_init(LwGuardInputClass *klass) {
    G_INPUT_STREAM_CLASS(klass)->read_fn = lw_guard_input_read;
    G_OBJECT_CLASS(klass)->finalize = lw_guard_input_finalize;
}

/* ---- The connection: the guarded input, the base's output. ---- */

typedef struct {
    GIOStream parent;
    GIOStream *base;
    GInputStream *input;
} LwGuardStream;
typedef GIOStreamClass LwGuardStreamClass;

G_DEFINE_TYPE(LwGuardStream, lw_guard_stream, G_TYPE_IO_STREAM)

static GInputStream *lw_guard_stream_get_input(GIOStream *stream) { return ((LwGuardStream *)stream)->input; }

static GOutputStream *lw_guard_stream_get_output(GIOStream *stream) {
    return g_io_stream_get_output_stream(((LwGuardStream *)stream)->base);
}

static gboolean lw_guard_stream_close(GIOStream *stream, GCancellable *cancellable, GError **error) {
    return g_io_stream_close(((LwGuardStream *)stream)->base, cancellable, error);
}

static void lw_guard_stream_finalize(GObject *object) {
    LwGuardStream *stream = (LwGuardStream *)object;
    g_clear_object(&stream->input);
    g_clear_object(&stream->base);
    G_OBJECT_CLASS(lw_guard_stream_parent_class)->finalize(object);
}

static void lw_guard_stream_init(LwGuardStream *stream) {}

static void lw_guard_stream_class_init(LwGuardStreamClass *klass) {
    klass->get_input_stream = lw_guard_stream_get_input;
    klass->get_output_stream = lw_guard_stream_get_output;
    klass->close_fn = lw_guard_stream_close;
    G_OBJECT_CLASS(klass)->finalize = lw_guard_stream_finalize;
}

GIOStream *lw_websocket_guard_stream_new(GIOStream *base, const LwWebsocketGuardLimits *limits) {
    LwGuardStream *stream = g_object_new(lw_guard_stream_get_type(), NULL);
    stream->base = g_object_ref(base);
    stream->input = g_object_new(lw_guard_input_get_type(), "base-stream", g_io_stream_get_input_stream(base),
                                 "close-base-stream", FALSE, NULL);
    ((LwGuardInput *)stream->input)->limits = *limits;
    return G_IO_STREAM(stream);
}

/* ---- The GProxy that wraps each connection. ---- */

typedef struct { GObject parent; } LwGuardProxy;
typedef GObjectClass LwGuardProxyClass;

static void lw_guard_proxy_iface_init(GProxyInterface *iface);
G_DEFINE_TYPE_WITH_CODE(LwGuardProxy, lw_guard_proxy, G_TYPE_OBJECT,
                        G_IMPLEMENT_INTERFACE(G_TYPE_PROXY, lw_guard_proxy_iface_init))

static GIOStream *lw_guard_proxy_connect(GProxy *proxy, GIOStream *connection, GProxyAddress *address,
                                         GCancellable *cancellable, GError **error) {
    return lw_websocket_guard_stream_new(connection, &session_limits);
}

static void lw_guard_proxy_connect_async(GProxy *proxy, GIOStream *connection, GProxyAddress *address,
                                         GCancellable *cancellable, GAsyncReadyCallback callback, gpointer data) {
    GTask *task = g_task_new(proxy, cancellable, callback, data);
    g_task_return_pointer(task, lw_websocket_guard_stream_new(connection, &session_limits), g_object_unref);
    g_object_unref(task);
}

static GIOStream *lw_guard_proxy_connect_finish(GProxy *proxy, GAsyncResult *result, GError **error) {
    return g_task_propagate_pointer(G_TASK(result), error);
}

static gboolean lw_guard_proxy_supports_hostname(GProxy *proxy) { return TRUE; }

static void lw_guard_proxy_iface_init(GProxyInterface *iface) {
    iface->connect = lw_guard_proxy_connect;
    iface->connect_async = lw_guard_proxy_connect_async;
    iface->connect_finish = lw_guard_proxy_connect_finish;
    iface->supports_hostname = lw_guard_proxy_supports_hostname;
}

static void lw_guard_proxy_init(LwGuardProxy *proxy) {}
static void lw_guard_proxy_class_init(LwGuardProxyClass *klass) {}

SoupSession *lw_websocket_guard_session(const char *host, int port, const LwWebsocketGuardLimits *first) {
    static gsize registered = 0;
    if (g_once_init_enter(&registered)) {
        session_limits = *first;
        /* GIO registers its extension points on the first look-up. */
        GProxy *none = g_proxy_get_default_for_protocol("lw-guard");
        if (none != NULL) g_object_unref(none);
        g_io_extension_point_implement(G_PROXY_EXTENSION_POINT_NAME, lw_guard_proxy_get_type(), "lw-guard", 0);
        g_once_init_leave(&registered, 1);
    }
    gboolean bracket = strchr(host, ':') != NULL;
    char *uri = g_strdup_printf("lw-guard://%s%s%s:%d", bracket ? "[" : "", host, bracket ? "]" : "", port);
    GProxyResolver *resolver = g_simple_proxy_resolver_new(uri, NULL);
    g_free(uri);
    SoupSession *session = soup_session_new_with_options("proxy-resolver", resolver, NULL);
    g_object_unref(resolver);
    soup_session_remove_feature_by_type(session, SOUP_TYPE_WEBSOCKET_EXTENSION_MANAGER);
    return session;
}
