#ifndef LAYERWATCH_CZLIB_SHIM_H
#define LAYERWATCH_CZLIB_SHIM_H

#include <zlib.h>

#endif
