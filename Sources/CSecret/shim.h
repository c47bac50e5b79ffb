#ifndef LAYERWATCH_CSECRET_SHIM_H
#define LAYERWATCH_CSECRET_SHIM_H

#include <libsecret/secret.h>

#endif
