#ifndef SURFACEKIT_CJPEG_SHIM_H
#define SURFACEKIT_CJPEG_SHIM_H
// libjpeg's C interface (Debian's libjpeg-dev, which is libjpeg-turbo), and one decoding call
// written in C. libjpeg reports a fatal error by calling error_exit, which must not return; this
// one jumps back with longjmp to the setjmp in surfacekit_jpeg_decode, a C frame, so no jump ever
// crosses a Swift frame.
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

struct surfacekit_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static inline void surfacekit_jpeg_error_exit(j_common_ptr info) {
    struct surfacekit_jpeg_error *error = (struct surfacekit_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

// Warnings (level −1: a corrupt or truncated stream that libjpeg would fill in with grey) are
// not printed; the first is kept, and the decode fails with it (see surfacekit_jpeg_decode).
// Trace messages (level ≥ 0) are ignored.
static inline void surfacekit_jpeg_warning(j_common_ptr info, int level) {
    struct surfacekit_jpeg_error *error = (struct surfacekit_jpeg_error *)info->err;
    if (level < 0) {
        if (error->message[0] == 0) { (*info->err->format_message)(info, error->message); }
        info->err->num_warnings++;
    }
}

// Decodes a JPEG held in memory to 8-bit RGBA rows (alpha 255). Returns 0 with *pixels a malloc'd
// width × height × 4 buffer (release it with surfacekit_jpeg_free); 1 when libjpeg cannot decode
// the bytes or warns about them (its message in `message`); 2 when the image has more than maximum_pixels pixels,
// found from the header before any pixel memory is allocated (*width and *height are set).
static inline int surfacekit_jpeg_decode(
    const unsigned char *data, unsigned long size, unsigned long maximum_pixels, unsigned char **pixels,
    unsigned int *width, unsigned int *height, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    struct surfacekit_jpeg_error error;
    unsigned char *volatile out = NULL;
    *pixels = NULL;
    *width = 0;
    *height = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = surfacekit_jpeg_error_exit;
    error.manager.emit_message = surfacekit_jpeg_warning;
    error.message[0] = 0;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        free(out);
        snprintf(message, message_size, "%s", error.message);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    *width = info.image_width;
    *height = info.image_height;
    if (info.image_width == 0 || info.image_height == 0 ||
        (unsigned long)info.image_width > maximum_pixels / info.image_height) {
        jpeg_destroy_decompress(&info);
        return 2;
    }
    info.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 4;
    out = malloc(stride * info.output_height);
    if (out == NULL) {
        jpeg_destroy_decompress(&info);
        snprintf(message, message_size, "out of memory for %u x %u pixels", info.output_width, info.output_height);
        return 1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = out + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    if (error.manager.num_warnings > 0) {
        // A stream cut short or corrupt: refused rather than shown half grey.
        free(out);
        snprintf(message, message_size, "%s", error.message);
        return 1;
    }
    *pixels = out;
    return 0;
}

static inline void surfacekit_jpeg_free(unsigned char *pixels) { free(pixels); }

#endif
