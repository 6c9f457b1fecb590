/* Fixture: the documented exception, `holo dump` reads the archive tables. */
#include <stdio.h>

#include "../runtime/archive.h"
#include "holo-cli.h"
