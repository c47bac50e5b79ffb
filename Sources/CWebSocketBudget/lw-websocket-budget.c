#include "CWebSocketBudget.h"

#include <gio/gio.h>
#include <string.h>
#include <time.h>

/* The share of a core one connection's thread may spend (a printer sends a few messages a second),
 * and the CPU seconds it may spend at once before the share applies. */
#define SHARE 0.1
#define BURST 0.05
/* Seconds in a row the reads may be held back before the connection counts as flooded and fails
 * (G_IO_ERROR_BUSY): a printer never comes near the budget, and a flood read at its pace would
 * leave the status behind an ever longer backlog. */
#define FLOOD_SECONDS 3.0

/* The CPU bucket of one connection (read on its thread only). */
typedef struct {
    double credit, last_cpu;
} Budget;

static double thread_cpu(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static double wall(void) { return (double)g_get_monotonic_time() / 1e6; }

/* Charges the CPU used since the last call and refills for the time passed; the seconds until the
 * bucket has credit again (0 when it has). */
static double budget_wait(Budget *budget, double *last_wall) {
    double cpu = thread_cpu(), now = wall();
    budget->credit -= cpu - budget->last_cpu;
    budget->credit += (now - *last_wall) * SHARE;
    if (budget->credit > BURST) budget->credit = BURST;
    budget->last_cpu = cpu;
    *last_wall = now;
    return budget->credit >= 0 ? 0 : -budget->credit / SHARE;
}

/* ---- The input stream: the base's, read only while the bucket has credit. ---- */

typedef struct {
    GFilterInputStream parent;
    Budget budget;
    double last_wall;
    /* When the reads held back without a second's break began, and were last held back. */
    double held_since, last_held;
} LwBudgetInput;
typedef GFilterInputStreamClass LwBudgetInputClass;

static void lw_budget_input_pollable_init(GPollableInputStreamInterface *iface);
G_DEFINE_TYPE_WITH_CODE(LwBudgetInput, lw_budget_input, G_TYPE_FILTER_INPUT_STREAM,
                        G_IMPLEMENT_INTERFACE(G_TYPE_POLLABLE_INPUT_STREAM, lw_budget_input_pollable_init))

static GPollableInputStream *base_of(GPollableInputStream *stream) {
    return G_POLLABLE_INPUT_STREAM(g_filter_input_stream_get_base_stream(G_FILTER_INPUT_STREAM(stream)));
}

static double wait_of(GPollableInputStream *stream) {
    LwBudgetInput *input = (LwBudgetInput *)stream;
    return budget_wait(&input->budget, &input->last_wall);
}

static gboolean lw_budget_input_can_poll(GPollableInputStream *stream) { return TRUE; }

static gboolean lw_budget_input_is_readable(GPollableInputStream *stream) {
    return wait_of(stream) == 0 && g_pollable_input_stream_is_readable(base_of(stream));
}

static GSource *lw_budget_input_create_source(GPollableInputStream *stream, GCancellable *cancellable) {
    double wait = wait_of(stream);
    GSource *inner = wait > 0 ? g_timeout_source_new((guint)(wait * 1000) + 1)
                              : g_pollable_input_stream_create_source(base_of(stream), cancellable);
    GSource *source = g_pollable_source_new_full(stream, inner, cancellable);
    g_source_unref(inner);
    return source;
}

static gssize lw_budget_input_read_nonblocking(GPollableInputStream *stream, void *buffer, gsize count, GError **error) {
    if (wait_of(stream) > 0) {
        LwBudgetInput *input = (LwBudgetInput *)stream;
        double now = wall();
        if (now - input->last_held > 1) input->held_since = now;
        input->last_held = now;
        if (now - input->held_since > FLOOD_SECONDS) {
            g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_BUSY, "flooded");
            return -1;
        }
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK, "over the CPU budget");
        return -1;
    }
    return g_pollable_input_stream_read_nonblocking(base_of(stream), buffer, count, NULL, error);
}

static void lw_budget_input_pollable_init(GPollableInputStreamInterface *iface) {
    iface->can_poll = lw_budget_input_can_poll;
    iface->is_readable = lw_budget_input_is_readable;
    iface->create_source = lw_budget_input_create_source;
    iface->read_nonblocking = lw_budget_input_read_nonblocking;
}

static void lw_budget_input_init(LwBudgetInput *input) {}
static void lw_budget_input_class_init(LwBudgetInputClass *klass) {}

/* ---- The connection: the throttled input, the base's output. ---- */

typedef struct {
    GIOStream parent;
    GIOStream *base;
    GInputStream *input;
} LwBudgetStream;
typedef GIOStreamClass LwBudgetStreamClass;

G_DEFINE_TYPE(LwBudgetStream, lw_budget_stream, G_TYPE_IO_STREAM)

static GInputStream *lw_budget_stream_get_input(GIOStream *stream) { return ((LwBudgetStream *)stream)->input; }

static GOutputStream *lw_budget_stream_get_output(GIOStream *stream) {
    return g_io_stream_get_output_stream(((LwBudgetStream *)stream)->base);
}

static gboolean lw_budget_stream_close(GIOStream *stream, GCancellable *cancellable, GError **error) {
    return g_io_stream_close(((LwBudgetStream *)stream)->base, cancellable, error);
}

static void lw_budget_stream_finalize(GObject *object) {
    LwBudgetStream *stream = (LwBudgetStream *)object;
    g_clear_object(&stream->input);
    g_clear_object(&stream->base);
    G_OBJECT_CLASS(lw_budget_stream_parent_class)->finalize(object);
}

static void lw_budget_stream_init(LwBudgetStream *stream) {}

static void lw_budget_stream_class_init(LwBudgetStreamClass *klass) {
    klass->get_input_stream = lw_budget_stream_get_input;
    klass->get_output_stream = lw_budget_stream_get_output;
    klass->close_fn = lw_budget_stream_close;
    G_OBJECT_CLASS(klass)->finalize = lw_budget_stream_finalize;
}

static GIOStream *budget_stream_new(GIOStream *base) {
    LwBudgetStream *stream = g_object_new(lw_budget_stream_get_type(), NULL);
    stream->base = g_object_ref(base);
    LwBudgetInput *input = g_object_new(lw_budget_input_get_type(), "base-stream", g_io_stream_get_input_stream(base),
                                        "close-base-stream", FALSE, NULL);
    input->budget = (Budget){.credit = BURST, .last_cpu = thread_cpu()};
    input->last_wall = wall();
    stream->input = G_INPUT_STREAM(input);
    return G_IO_STREAM(stream);
}

/* ---- The GProxy that wraps each connection. ---- */

typedef struct { GObject parent; } LwBudgetProxy;
typedef GObjectClass LwBudgetProxyClass;

static void lw_budget_proxy_iface_init(GProxyInterface *iface);
G_DEFINE_TYPE_WITH_CODE(LwBudgetProxy, lw_budget_proxy, G_TYPE_OBJECT,
                        G_IMPLEMENT_INTERFACE(G_TYPE_PROXY, lw_budget_proxy_iface_init))

static GIOStream *lw_budget_proxy_connect(GProxy *proxy, GIOStream *connection, GProxyAddress *address,
                                          GCancellable *cancellable, GError **error) {
    return budget_stream_new(connection);
}

static void lw_budget_proxy_connect_async(GProxy *proxy, GIOStream *connection, GProxyAddress *address,
                                          GCancellable *cancellable, GAsyncReadyCallback callback, gpointer data) {
    GTask *task = g_task_new(proxy, cancellable, callback, data);
    g_task_return_pointer(task, budget_stream_new(connection), g_object_unref);
    g_object_unref(task);
}

static GIOStream *lw_budget_proxy_connect_finish(GProxy *proxy, GAsyncResult *result, GError **error) {
    return g_task_propagate_pointer(G_TASK(result), error);
}

static gboolean lw_budget_proxy_supports_hostname(GProxy *proxy) { return TRUE; }

static void lw_budget_proxy_iface_init(GProxyInterface *iface) {
    iface->connect = lw_budget_proxy_connect;
    iface->connect_async = lw_budget_proxy_connect_async;
    iface->connect_finish = lw_budget_proxy_connect_finish;
    iface->supports_hostname = lw_budget_proxy_supports_hostname;
}

static void lw_budget_proxy_init(LwBudgetProxy *proxy) {}
static void lw_budget_proxy_class_init(LwBudgetProxyClass *klass) {}

SoupSession *lw_websocket_budget_session(const char *host, int port) {
    static gsize registered = 0;
    if (g_once_init_enter(&registered)) {
        /* GIO registers its extension points on the first look-up. */
        GProxy *none = g_proxy_get_default_for_protocol("lw-budget");
        if (none != NULL) g_object_unref(none);
        g_io_extension_point_implement(G_PROXY_EXTENSION_POINT_NAME, lw_budget_proxy_get_type(), "lw-budget", 0);
        g_once_init_leave(&registered, 1);
    }
    gboolean bracket = strchr(host, ':') != NULL;
    char *uri = g_strdup_printf("lw-budget://%s%s%s:%d", bracket ? "[" : "", host, bracket ? "]" : "", port);
    GProxyResolver *resolver = g_simple_proxy_resolver_new(uri, NULL);
    g_free(uri);
    SoupSession *session = soup_session_new_with_options("proxy-resolver", resolver, NULL);
    g_object_unref(resolver);
    return session;
}
