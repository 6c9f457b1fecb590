/* Planted: a kernel includes the archive reader (found via -Iruntime). */
#include "archive.h"
