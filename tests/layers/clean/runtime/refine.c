#include "hologram/resident.h"
