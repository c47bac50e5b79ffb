#ifndef LAYERWATCH_CSQLITE_SHIM_H
#define LAYERWATCH_CSQLITE_SHIM_H

#include <sqlite3.h>

#endif
