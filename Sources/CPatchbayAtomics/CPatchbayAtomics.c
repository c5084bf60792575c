// Everything is `static inline` in include/CPatchbayAtomics.h; a C target
// needs one source file to build.
#include "CPatchbayAtomics.h"
