// Declarations only; the symbol lives in the Swift runtime.
#include "CSwiftRuntimeShims.h"
