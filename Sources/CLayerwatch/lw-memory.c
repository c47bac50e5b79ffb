#include "lw-memory.h"

#include <malloc.h>

int lw_release_freed_memory(void) {
    return malloc_trim(0);
}
