#include "lw-memory.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int lw_release_freed_memory(void) {
    return malloc_trim(0);
}

/* One mapping of /proc/self/smaps while it is read: its range and whether its pages may be dropped. */
struct lw_mapping {
    unsigned long start, end;
    int droppable;   /* a file mapped without write access */
    long written_kb; /* pages the process changed (copies of its own): never dropped */
};

static void lw_drop_if_clean(const struct lw_mapping *mapping) {
    if (mapping->droppable && mapping->written_kb == 0 && mapping->end > mapping->start)
        madvise((void *)mapping->start, mapping->end - mapping->start, MADV_DONTNEED);
}

int lw_release_clean_file_pages(void) {
    FILE *smaps = fopen("/proc/self/smaps", "re");
    if (!smaps) return -1;
    /* Read first, dropped after: the list is read whole before any page goes. */
    size_t count = 0, capacity = 256;
    struct lw_mapping *mappings = calloc(capacity, sizeof *mappings);
    struct lw_mapping current = {0};
    int have = 0;
    char line[4096];
    while (mappings && fgets(line, sizeof line, smaps)) {
        unsigned long start, end;
        char perms[8] = "", path[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095[^\n]", &start, &end, perms, path) >= 3) {
            if (have) {
                if (count == capacity) {
                    struct lw_mapping *grown = realloc(mappings, 2 * capacity * sizeof *mappings);
                    if (!grown) break;
                    mappings = grown;
                    capacity *= 2;
                }
                mappings[count++] = current;
            }
            const char *name = path;
            while (*name == ' ') name++;
            current = (struct lw_mapping){ .start = start, .end = end,
                .droppable = name[0] == '/' && strchr(perms, 'w') == NULL
                             && strncmp(name, "/dev/", 5) != 0 && strncmp(name, "/SYSV", 5) != 0
                             && strncmp(name, "/memfd:", 7) != 0 && strstr(name, " (deleted)") == NULL };
            have = 1;
            continue;
        }
        long kb;
        if (sscanf(line, "Private_Dirty: %ld kB", &kb) == 1 || sscanf(line, "Shared_Dirty: %ld kB", &kb) == 1
            || sscanf(line, "Anonymous: %ld kB", &kb) == 1)
            current.written_kb += kb;
    }
    fclose(smaps);
    if (!mappings) return -1;
    if (have && count < capacity) mappings[count++] = current;
    for (size_t i = 0; i < count; i++) lw_drop_if_clean(&mappings[i]);
    free(mappings);
    return 0;
}
