#ifndef SURFACEKIT_CPNG_SHIM_H
#define SURFACEKIT_CPNG_SHIM_H
// libpng's C interface, as shipped by Debian's libpng-dev.
#include <png.h>
#endif
