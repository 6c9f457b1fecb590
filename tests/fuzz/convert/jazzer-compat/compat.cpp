// The three symbols the Jazzer.js prebuilt addon takes from glibc 2.38 and
// GCC 13's libstdc++ (see patch-addon.mjs), for Debian 12's older ones.
// LD_PRELOADed when the converter fuzzer runs; nothing else uses it.
#include <cstdlib>
#include <ios>

extern "C" long __isoc23_strtol(const char *s, char **end, int base) {
  // C23 adds only the 0b prefix, which libFuzzer's flag parsing never sees.
  return strtol(s, end, base);
}

extern "C" unsigned long __isoc23_strtoul(const char *s, char **end, int base) {
  return strtoul(s, end, base);
}

namespace std {
// GCC 13 initialises the standard streams inside libstdc++ and references
// this function only to pull that in; GCC 12 relies on an ios_base::Init
// object per translation unit, so the shim provides one.
void ios_base_library_init() {}
static ios_base::Init compat_ioinit;
} // namespace std
