#ifndef SURFACEKIT_CLAPACKE_SHIM_H
#define SURFACEKIT_CLAPACKE_SHIM_H
// LAPACKE's C interface, as shipped by Debian's liblapacke-dev.
#include <lapacke.h>
#endif
