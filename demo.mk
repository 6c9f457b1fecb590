# The web demo and its model (issue 9). Included at the end of the Makefile.
#
#   DEMO_HOLO   web-demo/model/digits.holo: the trained digit classifier,
#               converted from the committed web-demo/model/digits.onnx by
#               compiler/convert.js. A prerequisite of `build` (so `make run`
#               and `make demo` have it); not committed (web-demo/.gitignore).
#   make demo   serves web-demo/ on http://127.0.0.1:8080/ (COOP/COEP; PORT=n
#               or DEMO_PORT=n to change the port).
#   make demo-model   just the .holo.
# Retraining (not part of the build; see web-demo/model/RESULTS.md):
#   node web-demo/model/export-mnist.mjs && /usr/bin/python3 web-demo/model/train.py
DEMO_HOLO := web-demo/model/digits.holo
DEMO_PORT ?= $(or $(PORT),8080)
# (the CLI's imports include the generated dist/layout.js: without it a -j build
# converts before layout.mk has written it)
COMPILER_SRC := $(wildcard compiler/*.js compiler/rewrites/*.js) bindings-js/bin/holo.js $(LAYOUT_JS)

.PHONY: demo demo-model
build: $(DEMO_HOLO)
demo-model: $(DEMO_HOLO)

# The converter folds constants with the core module, so it comes first.
$(DEMO_HOLO): web-demo/model/digits.onnx $(COMPILER_SRC) $(PKG_WASM)/hologram-simd128.wasm
	$(NODE) bindings-js/bin/holo.js convert $< -o $@

demo: build
	PORT=$(DEMO_PORT) $(NODE) web-demo/server.mjs

# The text-generation panel's model (issue 11): the trained char-LM, converted
# from the committed models/charlm/charlm.onnx. Not part of `build` (3.7 MB, a
# few seconds); `make demo` and `make demo-model` make it.
DEMO_CHARLM := web-demo/model/charlm.holo
demo-model: $(DEMO_CHARLM)
demo: $(DEMO_CHARLM)
$(DEMO_CHARLM): models/charlm/charlm.onnx $(COMPILER_SRC) $(PKG_WASM)/hologram-simd128.wasm
	$(NODE) bindings-js/bin/holo.js convert $< -o $@
# The browser test drives the text panel, so `make test` builds its model too.
test-inputs: $(DEMO_CHARLM)
