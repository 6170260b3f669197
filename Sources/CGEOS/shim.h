/* GEOS's C API as the Swift module CGEOS: the reentrant (_r) functions only, so no call can
 * reach GEOS's global context by mistake. */
#ifndef GEOLOC_CGEOS_SHIM_H
#define GEOLOC_CGEOS_SHIM_H
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
#endif
