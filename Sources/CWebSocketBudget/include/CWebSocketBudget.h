#ifndef LAYERWATCH_CWEBSOCKETBUDGET_H
#define LAYERWATCH_CWEBSOCKETBUDGET_H

#include <libsoup/soup.h>

/* A SoupSession whose connections read at a bounded share of their thread's CPU. libsoup 3 reads a
 * WebSocket as long as bytes keep coming, and answers every ping it reads, all in one dispatch of
 * its main context: a server flooding pings keeps the thread busy for as long as it floods. Below
 * libsoup, each connection's input here is charged the CPU its thread used since its last read (a
 * bucket refilled at a tenth of a second per second, up to 50 ms); while the bucket is
 * empty the input says it would block, so libsoup's loop ends and its next read waits for the
 * refill, while the messages between the pings still come through; held back for more than 3 s
 * in a row, the read fails with G_IO_ERROR_BUSY (a flood). The wrapping is a GProxy that
 * GSocketClient calls for the "lw-budget" proxy scheme this session's resolver names (connecting to
 * the host itself): GIO's one hook for a stream under libsoup. Make and use the session on the
 * thread whose main context is thread-default; it connects to `host`:`port` only. */
SoupSession *lw_websocket_budget_session(const char *host, int port);

#endif
