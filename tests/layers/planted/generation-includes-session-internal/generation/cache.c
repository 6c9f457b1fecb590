/* Planted: generation uses the session internals (via -Iruntime). */
#include "session-internal.h"
