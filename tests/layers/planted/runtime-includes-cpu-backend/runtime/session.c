/* Planted: the runtime knows one backend by name. */
#include "hologram/cpu_backend.h"
