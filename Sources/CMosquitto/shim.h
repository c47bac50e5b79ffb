#ifndef LAYERWATCH_CMOSQUITTO_SHIM_H
#define LAYERWATCH_CMOSQUITTO_SHIM_H

#include <mosquitto.h>

#endif
