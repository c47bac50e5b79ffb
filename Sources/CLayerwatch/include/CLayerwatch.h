#ifndef CLAYERWATCH_H
#define CLAYERWATCH_H
#include "lw-frame-paintable.h"
#include "lw-layout-host.h"
#endif
