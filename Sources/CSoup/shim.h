#ifndef LAYERWATCH_CSOUP_SHIM_H
#define LAYERWATCH_CSOUP_SHIM_H

#include <libsoup/soup.h>

/* Caps a whole message, its fragments together, at `size` bytes where libsoup can: 3.6 and later
 * have max-total-message-size; 3.2 (Debian 12) caps only each frame (max-incoming-payload-size).
 * g_object_set is variadic, which Swift cannot call. */
static inline void lw_soup_websocket_cap_messages(SoupWebsocketConnection *connection, guint64 size) {
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(connection), "max-total-message-size") != NULL)
        g_object_set(connection, "max-total-message-size", size, NULL);
}

#endif
