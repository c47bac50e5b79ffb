#ifndef CPIXELS_H
#define CPIXELS_H
#include "lw-bilinear-shrink.h"
#include "lw-box-shrink.h"
#include "lw-yuv-to-bgra.h"
#endif
