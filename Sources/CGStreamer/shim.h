#ifndef LAYERWATCH_CGSTREAMER_SHIM_H
#define LAYERWATCH_CGSTREAMER_SHIM_H

#define GST_USE_UNSTABLE_API 1
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>

#endif
