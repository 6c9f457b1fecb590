/* Fixture: the archive reader, runtime-private. */
#include "hologram/holo.h"
