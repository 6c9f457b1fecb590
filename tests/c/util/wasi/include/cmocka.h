/* <cmocka.h> of the wasm32-wasi test builds only (tests/wasm-tests.mk puts
 * this directory on the include path): the subset in cmocka-wasi.h. */
#include "../../cmocka-wasi.h"
