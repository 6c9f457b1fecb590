#include "hologram/holo.h"
