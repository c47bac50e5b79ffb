#ifndef CXIMAGE_H
#define CXIMAGE_H
#include <stdint.h>

/* The screen bench's window on an X server's framebuffer: it opens a display and copies pixels of
 * the root window (what is on screen, all windows composed) with XGetImage, or for the whole screen
 * through shared memory (MIT-SHM) when the server offers it. Xlib stays in here, so Swift sees
 * three plain functions. */

/* The display named `name` (":57"), or NULL. X errors (a rectangle off the screen) are kept from
 * ending the process: the grab fails instead. */
void *cx_open(const char *name);

void cx_close(void *display);

/* Copies the root window's `width` × `height` pixels at (x, y) into `bgrx`, 4 bytes a pixel
 * (blue, green, red, unused), rows packed. Returns 0, or -1 (off the screen, or a screen that is
 * not 24-bit colour in 32-bit pixels). */
int cx_grab(void *display, int x, int y, int width, int height, uint8_t *bgrx);

#endif
