#ifndef CLAYERWATCH_H
#define CLAYERWATCH_H
#include "lw-frame-paintable.h"
#include "lw-glib-calls.h"
#include "lw-layout-host.h"
#include "lw-memory.h"
#include "lw-x11.h"
#endif
