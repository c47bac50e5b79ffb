#ifndef CPIXELS_H
#define CPIXELS_H
#include "lw-bilinear-shrink.h"
#include "lw-box-shrink.h"
#endif
