# Builds the real-model zoo (issue 18) with Debian's python3-torch,
# python3-torchvision 0.14 and python3-onnx: every model at random init under a
# fixed seed (no downloaded weights: torch.hub's download is disabled below),
# exported at opset 13 and 17 where the exporter allows, into OUTDIR as
# NAME.op13.onnx / NAME.op17.onnx, with OUTDIR/manifest.json:
#   { "models": { "NAME@OPSET": { name, opset, file, seed, kind, inputs: [{name,
#     shape, dtype, dims, range?}], outputs, export_s, bytes, bn_calibrated } |
#     { name, opset, error } } }
# `shape` is the shape run.mjs feeds; `dims` the ONNX input's dims (symbols for
# dynamic axes); `range` [lo, hi) the values of an integer input.
# Incremental: a model whose file and manifest entry exist is skipped.
#   /usr/bin/python3 bench/zoo/build.py OUTDIR [NAME ...] [--opsets 13,17] [--profile full|small]
import json, os, sys, time, zlib, warnings
warnings.filterwarnings('ignore')
import torch
import torch.hub
import onnx
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nets  # noqa: E402

def no_download(*a, **k):
    raise RuntimeError('the zoo uses random init: no weight download')
torch.hub.load_state_dict_from_url = no_download
torch.hub.download_url_to_file = no_download

# An export refusal is cached in the manifest per builder version: a builder
# change (a new export workaround) retries them.
BUILDER = 2
F32, I64 = 'float32', 'int64'
def img(h, w=None, c=3): return [('input', [1, c, h, w or h], F32)]

def tv(mod, name, **kw):
    def make():
        import torchvision.models as m
        import torchvision.models.segmentation, torchvision.models.detection, torchvision.models.video  # noqa: F401
        ns = {'': m, 'seg': m.segmentation, 'det': m.detection, 'video': m.video}[mod]
        return getattr(ns, name)(weights=None, **kw)
    return make

CLASSIFIERS = ['resnet18', 'resnet50', 'resnext50_32x4d', 'wide_resnet50_2', 'mobilenet_v2', 'mobilenet_v3_small',
               'mobilenet_v3_large', 'efficientnet_b0', 'efficientnet_v2_s', 'regnet_y_400mf', 'regnet_x_400mf',
               'mnasnet0_5', 'shufflenet_v2_x0_5', 'squeezenet1_1', 'densenet121', 'googlenet', 'inception_v3',
               'convnext_tiny', 'vit_b_16', 'swin_t', 'maxvit_t']
ZOO = {}
for n in CLASSIFIERS:
    kw = {'aux_logits': False, 'init_weights': True} if n in ('googlenet', 'inception_v3') else {}
    ZOO[n] = dict(kind='classification', make=tv('', n, **kw), inputs=img(299 if n == 'inception_v3' else 224))
for n in ['lraspp_mobilenet_v3_large', 'deeplabv3_mobilenet_v3_large', 'fcn_resnet50']:
    ZOO[n] = dict(kind='segmentation', make=tv('seg', n, weights_backbone=None), inputs=img(224))
# At random init Faster R-CNN's 91-way softmax scores sit near 1/91, under
# its default box_score_thresh 0.05: it detects nothing, and an empty output
# is no check. Threshold 0 keeps its top box_detections_per_img (100), so the
# RPN, RoiAlign, NMS and the top-k all decide what comes out.
DET_KW = {'fasterrcnn_mobilenet_v3_large_320_fpn': {'box_score_thresh': 0.0}}
for n in ['ssdlite320_mobilenet_v3_large', 'fasterrcnn_mobilenet_v3_large_320_fpn']:
    # eval-mode detectors take a list of [3, H, W] images and return boxes/labels/scores
    ZOO[n] = dict(kind='detection', make=tv('det', n, weights_backbone=None, **DET_KW.get(n, {})),
                  inputs=[('images', [3, 320, 320], F32)],
                  outputs=['boxes', 'labels', 'scores'], list_input=True, calibrate=False)
ZOO['r3d_18'] = dict(kind='video', make=tv('video', 'r3d_18'), inputs=[('input', [1, 3, 8, 112, 112], F32)])

GPT_L, GPT_H, GPT_D = 2, 4, 32
ZOO.update({
    'bert_encoder': dict(kind='nn', make=nets.BertEncoder,
                         inputs=[('input_ids', [2, 32], I64, [0, 512]), ('attention_mask', [2, 32], I64, [0, 2])],
                         outputs=['last_hidden_state', 'pooled'],
                         dynamic={'input_ids': {0: 'batch', 1: 'seq'}, 'attention_mask': {0: 'batch', 1: 'seq'},
                                  'last_hidden_state': {0: 'batch', 1: 'seq'}, 'pooled': {0: 'batch'}}),
    'gpt_decoder_kv': dict(kind='nn', make=nets.GptDecoder,
                           inputs=[('input_ids', [1, 4], I64, [0, 512])] +
                                  [(f'past_{kv}_{i}', [1, GPT_H, 12, GPT_D], F32) for i in range(GPT_L) for kv in 'kv'],
                           outputs=['logits'] + [f'present_{kv}_{i}' for i in range(GPT_L) for kv in 'kv'],
                           dynamic={'input_ids': {0: 'batch', 1: 'seq'}, 'logits': {0: 'batch', 1: 'seq'},
                                    **{f'past_{kv}_{i}': {0: 'batch', 2: 'past'} for i in range(GPT_L) for kv in 'kv'},
                                    **{f'present_{kv}_{i}': {0: 'batch', 2: 'total'} for i in range(GPT_L) for kv in 'kv'}}),
    'bigru': dict(kind='nn', make=nets.BiGru, inputs=[('features', [1, 50, 40], F32)]),
    'stacked_lstm': dict(kind='nn', make=nets.StackedLstm, inputs=[('features', [1, 50, 40], F32)]),
    'audio_conv1d': dict(kind='nn', make=nets.AudioFeatures, inputs=[('waveform', [1, 1, 16000], F32)]),
    'unet': dict(kind='nn', make=nets.UNet, inputs=img(128)),
    'autoencoder': dict(kind='nn', make=nets.AutoEncoder, inputs=img(28, c=1)),
})

# tests/zoo's committed subset (`--profile small`, a few MB): the hand-written
# nets at small widths and squeezenet1_1 at 96x96, opset 17 (the transformers
# at 13 too: torch 1.13 decomposes LayerNorm below opset 17).
def gpt_inputs(layers, heads, past, hd, seq):
    return ([('input_ids', [1, seq], I64, [0, 128])] +
            [(f'past_{kv}_{i}', [1, heads, past, hd], F32) for i in range(layers) for kv in 'kv'])
SMALL = {
    'squeezenet1_1': dict(ZOO['squeezenet1_1'], inputs=img(96), opsets=[17]),
    'bert_tiny': dict(ZOO['bert_encoder'], make=lambda: nets.BertEncoder(vocab=128, d=64, heads=2, layers=2, ffn=128, max_pos=64),
                      inputs=[('input_ids', [2, 16], I64, [0, 128]), ('attention_mask', [2, 16], I64, [0, 2])], opsets=[13, 17]),
    'gpt_tiny_kv': dict(ZOO['gpt_decoder_kv'], make=lambda: nets.GptDecoder(vocab=128, d=64, heads=2, layers=2, max_pos=64),
                        inputs=gpt_inputs(2, 2, 12, 32, 4), opsets=[13, 17]),
    'bigru': dict(ZOO['bigru'], opsets=[17]),
    'stacked_lstm': dict(ZOO['stacked_lstm'], make=lambda: nets.StackedLstm(hidden=48), opsets=[17]),
    'audio_conv1d': dict(ZOO['audio_conv1d'], make=lambda: nets.AudioFeatures(c=32, d=64), inputs=[('waveform', [1, 1, 4000], F32)], opsets=[17]),
    'unet': dict(ZOO['unet'], make=lambda: nets.UNet(w=8), inputs=img(64), opsets=[17]),
    'autoencoder': dict(ZOO['autoencoder'], opsets=[17]),
    'mobilenet_v3_small_w025': dict(ZOO['mobilenet_v3_small'], make=tv('', 'mobilenet_v3_small', width_mult=0.25, num_classes=10), inputs=img(96), opsets=[17]),
    'mobilenet_v2_w025': dict(ZOO['mobilenet_v2'], make=tv('', 'mobilenet_v2', width_mult=0.25, num_classes=10), inputs=img(96), opsets=[17]),
    'vit_tiny': dict(ZOO['vit_b_16'], make=lambda: __import__('torchvision').models.VisionTransformer(
        image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=64, mlp_dim=128, num_classes=10), inputs=img(32), opsets=[13, 17]),
}


def example(spec, gen):
    if len(spec) > 3:
        return torch.randint(spec[3][0], spec[3][1], spec[1], generator=gen)
    return torch.randn(spec[1], generator=gen)


def calibrate(model, spec, gen):
    """Seeded BatchNorm statistics: 2 random batches of 2 through the model in
    train mode (cumulative average), so activations keep a realistic scale
    through deep nets instead of the init's mean 0 / var 1 (random-init
    mobilenet_v2's logits are ~1e-9 without it). Still no trained weight."""
    bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not bns:
        return False
    for m in bns:
        m.momentum = None
        m.reset_running_stats()
    model.train()
    with torch.no_grad():
        for _ in range(2):
            model(*[example((s[0], [2] + s[1][1:], *s[2:]), gen) for s in spec['inputs']])
    model.eval()
    return True


def input_info(path, spec):
    g = onnx.load(path, load_external_data=False).graph
    inits = {t.name for t in g.initializer}
    want = {s[0]: s for s in spec['inputs']}
    out = []
    for i in g.input:
        if i.name in inits:
            continue
        t = i.type.tensor_type
        dims = [d.dim_param if d.dim_param else d.dim_value for d in t.shape.dim]
        s = want.get(i.name)
        info = {'name': i.name, 'dtype': onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type].name,
                'shape': s[1] if s else dims, 'dims': dims}
        if s and len(s) > 3:
            info['range'] = s[3]
        out.append(info)
    return out, [o.name for o in g.output]


def reinit_zero_heads(model, gen):
    # torchvision zero-initializes some classifier heads (VisionTransformer's
    # heads.head): at random init their output is exactly 0, and a comparison
    # relative to max|ref| = 0 cannot fail. Such a layer gets seeded N(0, 0.02).
    for m in model.modules():
        if isinstance(m, torch.nn.Linear) and not m.weight.detach().any():
            with torch.no_grad():
                m.weight.copy_(torch.randn(m.weight.shape, generator=gen) * 0.02)


def build(name, spec, opset, out, manifest):
    key, file = f'{name}@{opset}', f'{name}.op{opset}.onnx'
    path = os.path.join(out, file)
    old = manifest.get(key)
    if old and (os.path.exists(path) if 'error' not in old else old.get('builder') == BUILDER):
        return False
    seed = zlib.crc32(name.encode()) & 0x7fffffff
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    t0 = time.time()
    try:
        model = spec['make']()
        reinit_zero_heads(model, gen)
        cal = calibrate(model, spec, gen) if spec.get('calibrate', True) else False
        model.eval()
        args = tuple(example(s, gen) for s in spec['inputs'])
        if spec.get('list_input'):
            args = (list(args),)
        names = [s[0] for s in spec['inputs']]
        tmp = path + '.tmp'
        # not under no_grad: there nn.MultiheadAttention takes its fused fast
        # path (aten::_native_multi_head_attention), which the exporter lacks
        torch.onnx.export(model, args, tmp, opset_version=opset, input_names=names,
                          output_names=spec.get('outputs', ['output']), dynamic_axes=spec.get('dynamic'),
                          do_constant_folding=True)
    except Exception as e:  # an architecture the exporter cannot take at this opset stays listed with why
        msg = str(e).strip().split('\n')[0][:400]
        manifest[key] = dict(name=name, opset=opset, seed=seed, kind=spec['kind'], builder=BUILDER,
                             error=f'export: {type(e).__name__}: {msg}')
    else:
        os.replace(tmp, path)
        inputs, outputs = input_info(path, spec)
        manifest[key] = dict(name=name, opset=opset, file=file, seed=seed, kind=spec['kind'], inputs=inputs,
                             outputs=outputs, export_s=round(time.time() - t0, 1), bytes=os.path.getsize(path),
                             bn_calibrated=cal, torch=torch.__version__)
    print(json.dumps({k: v for k, v in manifest[key].items() if k in ('name', 'opset', 'bytes', 'export_s', 'error')}), flush=True)
    return True


def main():
    argv = sys.argv[1:]
    opsets = None
    if '--opsets' in argv:
        i = argv.index('--opsets')
        opsets = [int(x) for x in argv[i + 1].split(',')]
        del argv[i:i + 2]
    zoo = ZOO
    if '--profile' in argv:
        i = argv.index('--profile')
        zoo = {'full': ZOO, 'small': SMALL}[argv[i + 1]]
        del argv[i:i + 2]
    out = argv[0]
    # isnet_* are fetched (bench/zoo/fetch-imgly.mjs), not built
    sel = [n.split('@')[0] for n in argv[1:] if not n.startswith('isnet_')] if argv[1:] else list(zoo)
    bad = [n for n in sel if n not in zoo]
    if bad:
        sys.exit(f'build.py: unknown zoo model(s) {bad}; known: {", ".join(zoo)}')
    os.makedirs(out, exist_ok=True)
    mpath = os.path.join(out, 'manifest.json')
    manifest = json.load(open(mpath))['models'] if os.path.exists(mpath) else {}
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    for name in sel:
        for opset in opsets or zoo[name].get('opsets', [13, 17]):
            if build(name, zoo[name], opset, out, manifest):
                with open(mpath + '.tmp', 'w') as f:
                    json.dump({'models': manifest}, f, indent=1, sort_keys=True)
                os.replace(mpath + '.tmp', mpath)


if __name__ == '__main__':
    main()
