# The JS shim's struct layouts (docs/decisions.md 29): bindings-js/src-c/layout.c
# compiled alone for wasm32 is a module exporting its offsetof/sizeof table;
# tools/gen-layout.mjs writes it into bindings-js/dist/layout.js, which the
# package ships and the shim reads every struct field through. The same
# layout.c is linked into every core module, and the shim refuses a module
# whose table differs (tests/js/layout.test.mjs).
LAYOUT_WASM := build/wasm/layout.wasm
LAYOUT_JS   := bindings-js/dist/layout.js
LAYOUT_DIR  := build/wasm/layout
# (the Makefile's c_rule: an object with its header list, docs/decisions.md 33)
$(eval $(call c_rule,$(LAYOUT_DIR),,$(CLANG),--target=wasm32 -std=c11 -Wall -Wextra -Werror -O2 -ffreestanding -nostdlib \
  -Iruntime/include -Igeneration/include -Ibindings-js/src-c))
LAYOUT_OBJ  := $(call obj_of,$(LAYOUT_DIR),bindings-js/src-c/layout.c)
-include $(call deps_of,$(LAYOUT_OBJ))

$(LAYOUT_WASM): $(LAYOUT_OBJ)
	$(WASMLD) --no-entry $< -o $@
$(LAYOUT_JS): $(LAYOUT_WASM) tools/gen-layout.mjs bindings-js/src/layout-rows.js
	@mkdir -p $(@D)
	$(NODE) tools/gen-layout.mjs $< $@

.PHONY: pkg-layout
pkg-layout: $(LAYOUT_JS)
build: pkg-layout
