#include "gen-mathf.h"
#include "hologram/generate.h"
#include "hologram/resident.h"
