#ifndef LAYERWATCH_CWEBSOCKETGUARD_H
#define LAYERWATCH_CWEBSOCKETGUARD_H

#include <libsoup/soup.h>

/* A guard on the bytes a printer's WebSocket server sends, below libsoup, for what libsoup 3.2 does
 * not do as a printer's status needs: it reads the frame headers going by (a server's frames are
 * unmasked, their headers 2 to 10 bytes) and
 *  - hands every text message to libsoup as binary (opcode 1 → 2): libsoup fails the whole
 *    connection on a text message that is not UTF-8 (RFC 6455 1007), where one odd file name from
 *    a printer should cost only that message (the caller checks UTF-8 and skips it);
 *  - passes a ping on (libsoup answers each it reads) at most every `ping_spacing` seconds and
 *    drops the others, and past `control_frames` control frames in a second waits `pause` before
 *    each read: a ping flood then costs a bounded share of the thread and the messages between
 *    the pings still come (libsoup 3.2 answers every ping, reading as long as bytes come);
 *  - refuses, from its header and before its payload comes, a message over `max_message` bytes,
 *    fragments together (libsoup 3.2 caps frames only), and the frames RFC 6455 forbids a server,
 *    each with its own code (below) so the user is told which.
 * Its refusals fail the read with an error of LW_WEBSOCKET_GUARD_ERROR, which libsoup's "error"
 * signal carries as is. The guard starts after the HTTP answer's head, and only when that answer is
 * 101: before (and for any other answer) the bytes pass untouched, so libsoup does the handshake. */

typedef enum {
    LW_WEBSOCKET_GUARD_RESERVED_BITS = 1,
    LW_WEBSOCKET_GUARD_UNKNOWN_KIND,
    LW_WEBSOCKET_GUARD_MASKED,
    LW_WEBSOCKET_GUARD_BAD_CONTROL,
    LW_WEBSOCKET_GUARD_NESTED_MESSAGE,
    LW_WEBSOCKET_GUARD_ORPHAN_CONTINUATION,
    /* The message's size (its fragments so far and this frame's) is the error's message, in decimal. */
    LW_WEBSOCKET_GUARD_TOO_BIG,
} LwWebsocketGuardError;

GQuark lw_websocket_guard_error_quark(void);

/* What the guard allows; the same for every connection of the process (the first session's). */
typedef struct {
    guint64 max_message;
    double ping_spacing;
    int control_frames;
    double pause;
} LwWebsocketGuardLimits;

/* The guard over `base`'s input (`base`'s output as it is): what the session's proxy puts under
 * libsoup, with the session's limits. */
GIOStream *lw_websocket_guard_stream_new(GIOStream *base, const LwWebsocketGuardLimits *limits);

/* A SoupSession (without WebSocket extensions: a compressed frame would defeat the guard) whose
 * connections to `host`:`port` pass through the guard. The stream is put there by a GProxy that
 * GSocketClient calls for the "lw-guard" proxy scheme this session's resolver names (connecting to
 * the host itself): GIO's one hook for a stream under libsoup. Make and use the session on the
 * thread whose main context is thread-default. */
SoupSession *lw_websocket_guard_session(const char *host, int port, const LwWebsocketGuardLimits *limits);

#endif
