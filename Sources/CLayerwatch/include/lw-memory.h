#ifndef LW_MEMORY_H
#define LW_MEMORY_H

/* Hands the memory freed in glibc's arenas (one per thread that allocated) back to the system
 * (malloc_trim, which Swift's Glibc module does not declare): called once the window's views and
 * their cameras' threads are gone, for the background. Returns 1 if memory was released. */
int lw_release_freed_memory(void);

/* Takes out of the process's resident set the pages of the files it maps without write access and
 * never changed (libraries' code and read-only data, mapped caches): their contents stay in the page
 * cache, and a page used again comes back from it. What start-up touched once then stops counting.
 * Mappings with a changed page (relocated data) are left whole. Returns 0, or -1 if /proc/self/smaps
 * could not be read. */
int lw_release_clean_file_pages(void);

#endif
