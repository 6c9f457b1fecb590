#!/usr/bin/python3
"""Export the trained char-LM as a K-token *sequence* step graph (no retraining).

The weights are read from the committed single-step export (charlm.onnx: its
initializers, each matched to its module by the graph structure) into the
CharLM of train.py, checked against the committed PyTorch reference logits
(reference.json), and exported again with a K-token step:

    tokens [1, K] int64   the bytes at positions pos .. pos+K-1
    pos    [1]    int64   the first position (0 <= pos < MAX_CTX)
    k_cache_i, v_cache_i  [1, H, C, hd] float32 (as charlm.onnx)
 -> logits [1, K, 256]    row i: next-byte logits after tokens[i]
    k_cache_i_out, v_cache_i_out   rows pos .. pos+K-1 (< C) written

One pass verifies K speculative proposals or prefills K prompt bytes. Rows of
the cache past the last *used* position are masked (weight exactly 0) by every
later query, so a caller that used only the first n < K rows (padding, or a
rejected proposal) keeps the output state and rewinds its position: the rows
n .. K-1 are overwritten before any query can see them (docs/charlm.md).

Reproduce (Debian python3-torch 1.13 + python3-onnx):

    /usr/bin/python3 models/charlm/export_verify.py            # -> charlm-verify.onnx (K = 4)
    /usr/bin/python3 models/charlm/export_verify.py --k 8 --out /tmp/charlm-verify8.onnx
"""
import argparse
import json
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from train import NEG, VOCAB, CharLM  # noqa: E402  (the model definition)


def load_from_onnx(path, ref):
    """CharLM with the weights of a step-graph export of train.py."""
    cfg = ref['config']
    m = CharLM(cfg['layers'], cfg['d'], cfg['heads'], cfg['ctx'], cfg['ff'])
    om = onnx.load(path)
    init = {i.name: numpy_helper.to_array(i) for i in om.graph.initializer}
    sd = {}
    # named initializers: embeddings, LayerNorms, biases
    for k, v in init.items():
        if k.startswith('m.'):
            sd[k[2:]] = torch.from_numpy(v.copy())
    # the Linear weights were folded into MatMul constants [in, out]; each MatMul's
    # output is consumed by the Add of its module's (named) bias
    consumers = {}
    for n in om.graph.node:
        for x in n.input:
            consumers.setdefault(x, []).append(n)
    for n in om.graph.node:
        if n.op_type != 'MatMul' or n.input[1] not in init:
            continue
        adds = [c for c in consumers.get(n.output[0], []) if c.op_type == 'Add']
        bias = [x for a in adds for x in a.input if x.startswith('m.') and x.endswith('.bias')]
        if len(bias) != 1:
            raise SystemExit(f'cannot attribute MatMul weight {n.input[1]} to a module')
        sd[bias[0][2:-5] + '.weight'] = torch.from_numpy(init[n.input[1]].T.copy())
    missing = set(m.state_dict()) - set(sd)
    if missing:
        raise SystemExit(f'weights not found in {path}: {sorted(missing)}')
    m.load_state_dict(sd)
    return m.eval()


class Verify(nn.Module):
    def __init__(self, m: CharLM, K: int):
        super().__init__()
        self.m, self.K = m, K
        C = m.ctx
        p = torch.arange(C).view(C, 1)
        # positions of the K tokens, clamped (rows past C are padding the caller discards)
        self.register_buffer('pidx', (p + torch.arange(K).view(1, K)).clamp(max=C - 1))
        # additive causal rows of the K queries: 0 for j <= pos + i, NEG after
        j = torch.arange(C).view(1, 1, C)
        q = (p + torch.arange(K).view(1, K)).view(C, K, 1)
        self.register_buffer('amask', torch.where(j <= q, torch.tensor(0.0), torch.tensor(NEG)).reshape(C, K * C))
        # cache write as a gather from concat(cache, new rows): row r <- new[r - pos]
        # for pos <= r < pos + K, else cache[r] (a copy either way: bit-exact)
        r = torch.arange(C).view(1, C)
        self.register_buffer('widx', torch.where((r >= p) & (r < p + K), C + r - p, r))

    def forward(self, tokens, pos, *caches):
        m, K, C = self.m, self.K, self.m.ctx
        d = m.tok.weight.shape[1]
        x = m.tok(tokens) + m.pos(self.pidx[pos])                   # [1,K,d]
        amask = self.amask[pos].reshape(1, 1, K, C)
        widx = self.widx[pos].reshape(C)
        outs = []
        for i, b in enumerate(m.blocks):
            H, hd = b.heads, b.hd
            h = b.ln1(x)
            qh = b.q(h).reshape(1, K, H, hd).transpose(1, 2)          # [1,H,K,hd]
            kh = b.k(h).reshape(1, K, H, hd).transpose(1, 2)
            vh = b.v(h).reshape(1, K, H, hd).transpose(1, 2)
            kc = torch.index_select(torch.cat([caches[2 * i], kh], 2), 2, widx)
            vc = torch.index_select(torch.cat([caches[2 * i + 1], vh], 2), 2, widx)
            s = (qh @ kc.transpose(-1, -2)) * (1.0 / (hd ** 0.5)) + amask  # [1,H,K,C]
            a = (s.softmax(-1) @ vc).transpose(1, 2).reshape(1, K, d)
            x = x + b.o(a)
            x = x + b.mlp(b.ln2(x))
            outs += [kc, vc]
        logits = m.head(m.lnf(x)).reshape(1, K, VOCAB)
        return (logits, *outs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--k', type=int, default=4)
    ap.add_argument('--src', default=os.path.join(HERE, 'charlm.onnx'))
    ap.add_argument('--ref', default=os.path.join(HERE, 'reference.json'))
    ap.add_argument('--out', default=os.path.join(HERE, 'charlm-verify.onnx'))
    a = ap.parse_args()
    K = a.k
    ref = json.load(open(a.ref))
    m = load_from_onnx(a.src, ref)
    ids = ref['greedy_ids']
    with torch.no_grad():
        full = m(torch.tensor([ids[:-1]]))[0]
    want = torch.tensor([ref['logits'][str(t)] for t in range(len(ids) - 1)])
    d0 = (full - want).abs().max().item()
    print(f'weights from {os.path.basename(a.src)}: full forward vs reference.json max |diff| {d0:.2e}')
    assert d0 < 1e-4, 'the weights read back do not reproduce the reference logits'

    cfg = ref['config']
    H, hd, C = cfg['heads'], cfg['d'] // cfg['heads'], cfg['ctx']
    ver = Verify(m, K).eval()
    caches = [torch.zeros(1, H, C, hd) for _ in range(2 * cfg['layers'])]
    # the K-token graph in torch must reproduce the full forward, chunk by chunk
    # (the last chunk padded with zeros; its padded rows are discarded)
    with torch.no_grad():
        cs, diff, n = [c.clone() for c in caches], 0.0, len(ids) - 1
        for p in range(0, n, K):
            chunk = ids[p:min(p + K, n)]
            used = len(chunk)
            out = ver(torch.tensor([chunk + [0] * (K - used)]), torch.tensor([p]), *cs)
            cs = list(out[1:])
            diff = max(diff, (out[0][0, :used] - full[p:p + used]).abs().max().item())
    print(f'torch {K}-token step vs full forward max |diff| {diff:.2e}')
    assert diff < 1e-4
    names_in, names_out = ['tokens', 'pos'], ['logits']
    for i in range(cfg['layers']):
        names_in += [f'k_cache_{i}', f'v_cache_{i}']
        names_out += [f'k_cache_{i}_out', f'v_cache_{i}_out']
    with torch.no_grad():
        torch.onnx.export(ver, (torch.tensor([[65] * K]), torch.tensor([0]), *caches), a.out,
                          input_names=names_in, output_names=names_out, opset_version=17,
                          do_constant_folding=True)
    om = onnx.load(a.out)
    onnx.checker.check_model(om)
    ops = sorted({n.op_type for n in om.graph.node})
    print(f'exported {a.out}: {os.path.getsize(a.out)} bytes, K={K}, ops {ops}')


if __name__ == '__main__':
    main()
