#include <pthread.h>
#include <stdlib.h>
