/* Fixture: stands for the public session API. */
#include <stdint.h>
