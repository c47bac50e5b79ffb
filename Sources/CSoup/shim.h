#ifndef LAYERWATCH_CSOUP_SHIM_H
#define LAYERWATCH_CSOUP_SHIM_H

#include <libsoup/soup.h>

#endif
