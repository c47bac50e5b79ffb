#ifndef LAYERWATCH_LW_SDP_H
#define LAYERWATCH_LW_SDP_H

#include <gst/sdp/sdp.h>

/* `text` parsed by GStreamer's SDP parser; NULL when it does not start as SDP ("v=0"). Free with
 * gst_sdp_message_free. */
GstSDPMessage *lw_sdp_parse(const char *text);

#endif
