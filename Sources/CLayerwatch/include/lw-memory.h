#ifndef LW_MEMORY_H
#define LW_MEMORY_H

/* Hands the memory freed in glibc's arenas (one per thread that allocated) back to the system
 * (malloc_trim, which Swift's Glibc module does not declare): called once the window's views and
 * their cameras' threads are gone, for the background. Returns 1 if memory was released. */
int lw_release_freed_memory(void);

#endif
