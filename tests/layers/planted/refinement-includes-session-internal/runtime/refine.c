/* Planted: refinement is a strategy over the public API only. */
#include "session-internal.h"
