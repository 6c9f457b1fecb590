/* Planted: the core has no libc. */
#include <stdlib.h>
