#!/usr/bin/python3
"""Train a small byte-level decoder-only transformer on the King James Bible
(Debian package bible-kjv-text, public domain) and export a single-step ONNX
graph with an explicit, fixed-size KV cache.

Reproduce (Debian python3-torch 1.13 + python3-onnx, CPU):

    apt-get install -y bible-kjv-text python3-torch python3-onnx
    /usr/bin/python3 models/charlm/train.py                       # main model
    /usr/bin/python3 models/charlm/train.py --draft               # draft model

Everything is seeded; the run is bounded by a fixed number of optimizer steps
(not by wall time) so it is repeatable. See docs/charlm.md.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB = 256  # bytes
NEG = -1e9   # additive mask value for future positions (finite: no inf arithmetic)


# --------------------------------------------------------------------------- data
def load_kjv():
    """The whole KJV as text, one verse per line, verse numbers stripped.
    Returns (train_text, val_text): every 10th chapter (index % 10 == 9) is validation."""
    out = subprocess.run(['bible', '-l0', 'Gen1:1-Rev22:21'], check=True,
                         capture_output=True, text=True).stdout
    chapters, cur = [], None
    for line in out.split('\n'):
        if not line.strip():
            continue
        m = re.match(r'^\s+(\d+) (.*)$', line)
        if m:  # "  12 verse text"
            cur.append(m.group(2).strip())
        else:  # "Genesis 1" chapter header
            cur = []
            chapters.append(cur)
    train, val = [], []
    for i, ch in enumerate(chapters):
        (val if i % 10 == 9 else train).append('\n'.join(ch) + '\n')
    return ''.join(train), ''.join(val), len(chapters)


# -------------------------------------------------------------------------- model
class Block(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.ln1 = nn.LayerNorm(d)
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, ff)
        self.fc2 = nn.Linear(ff, d)

    def mlp(self, x):
        return self.fc2(F.gelu(self.fc1(x)))  # exact GELU (Erf)

    def forward(self, x):
        # full-sequence training / reference forward, x: [B, T, d]
        B, T, d = x.shape
        h = self.ln1(x)
        q = self.q(h).view(B, T, self.heads, self.hd).transpose(1, 2)
        k = self.k(h).view(B, T, self.heads, self.hd).transpose(1, 2)
        v = self.v(h).view(B, T, self.heads, self.hd).transpose(1, 2)
        s = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(self.hd))
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        s = s.masked_fill(~causal, float('-inf'))
        a = (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, d)
        x = x + self.o(a)
        return x + self.mlp(self.ln2(x))

    def step(self, x, onehot, amask, kc, vc):
        """One token. x [1,1,d]; onehot [1,1,C,1] (1 at pos); amask [1,1,1,C]
        (0 for j<=pos, NEG after); kc, vc [1,H,C,hd]. Returns x, kc', vc'."""
        d, H, hd = x.shape[-1], self.heads, self.hd
        h = self.ln1(x)
        q = self.q(h).reshape(1, 1, H, hd).transpose(1, 2)  # [1,H,1,hd]
        k = self.k(h).reshape(1, 1, H, hd).transpose(1, 2)
        v = self.v(h).reshape(1, 1, H, hd).transpose(1, 2)
        keep = 1.0 - onehot
        kc = kc * keep + k * onehot  # write row `pos`, leave the others bit-identical
        vc = vc * keep + v * onehot
        s = (q @ kc.transpose(-1, -2)) * (1.0 / math.sqrt(hd)) + amask  # [1,H,1,C]
        a = (s.softmax(-1) @ vc).transpose(1, 2).reshape(1, 1, d)
        x = x + self.o(a)
        return x + self.mlp(self.ln2(x)), kc, vc


class CharLM(nn.Module):
    def __init__(self, layers, d, heads, ctx, ff):
        super().__init__()
        self.cfg = dict(layers=layers, d=d, heads=heads, ctx=ctx, ff=ff, vocab=VOCAB)
        self.ctx = ctx
        self.tok = nn.Embedding(VOCAB, d)
        self.pos = nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList([Block(d, heads, ff) for _ in range(layers)])
        self.lnf = nn.LayerNorm(d)
        self.head = nn.Linear(d, VOCAB)
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)
        if isinstance(m, nn.Linear) and m.bias is not None:
            nn.init.zeros_(m.bias)

    def forward(self, idx):  # idx [B,T] int64 -> logits [B,T,V]
        T = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(T))
        for b in self.blocks:
            x = b(x)
        return self.head(self.lnf(x))


class Step(nn.Module):
    """The exported single-step graph. Inputs: token [1,1] int64, pos [1] int64,
    k_cache_i / v_cache_i [1,H,C,hd] float32. Outputs: logits [1,256],
    k_cache_i_out / v_cache_i_out (same shapes) which feed k_cache_i / v_cache_i."""

    def __init__(self, m: CharLM):
        super().__init__()
        self.m = m
        C = m.ctx
        # lookup tables gathered by `pos`: a one-hot row and an additive causal row
        self.register_buffer('eye', torch.eye(C))
        self.register_buffer('causal', torch.full((C, C), NEG).triu(1))

    def forward(self, token, pos, *caches):
        m, C = self.m, self.m.ctx
        x = m.tok(token) + m.pos(pos)                     # [1,1,d] + [1,d]
        onehot = F.embedding(pos, self.eye).reshape(1, 1, C, 1)
        amask = F.embedding(pos, self.causal).reshape(1, 1, 1, C)
        outs = []
        for i, b in enumerate(m.blocks):
            x, kc, vc = b.step(x, onehot, amask, caches[2 * i], caches[2 * i + 1])
            outs += [kc, vc]
        logits = m.head(m.lnf(x)).reshape(1, VOCAB)
        return (logits, *outs)


# ---------------------------------------------------------------------- training
def batches(data, ctx, bs, gen):
    ix = torch.randint(len(data) - ctx - 1, (bs,), generator=gen)
    x = torch.stack([data[i:i + ctx] for i in ix])
    y = torch.stack([data[i + 1:i + ctx + 1] for i in ix])
    return x, y


@torch.no_grad()
def val_loss(model, val, ctx, bs=64):
    """Mean next-byte cross-entropy (nats) over every 3rd non-overlapping window
    of `ctx` bytes of the validation text (deterministic; each window starts
    with an empty context, so early positions see little history)."""
    model.eval()
    n = (len(val) - 1) // ctx
    xs = val[:n * ctx].view(n, ctx)[::3]  # every 3rd window: a third of the text, spread over all of it
    ys = val[1:n * ctx + 1].view(n, ctx)[::3]
    n = xs.shape[0]
    tot, cnt = 0.0, 0
    for i in range(0, n, bs):
        lo = model(xs[i:i + bs])
        tot += F.cross_entropy(lo.reshape(-1, VOCAB), ys[i:i + bs].reshape(-1), reduction='sum').item()
        cnt += ys[i:i + bs].numel()
    model.train()
    return tot / cnt


@torch.no_grad()
def greedy(model, ids, n):
    ids = list(ids)
    for _ in range(n):
        lo = model(torch.tensor([ids[-model.ctx:]]))
        ids.append(int(lo[0, -1].argmax()))
    return ids


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--draft', action='store_true', help='the small draft model (1 layer, d=64)')
    ap.add_argument('--layers', type=int)
    ap.add_argument('--d', type=int)
    ap.add_argument('--heads', type=int)
    ap.add_argument('--ctx', type=int, default=128)
    ap.add_argument('--steps', type=int)
    ap.add_argument('--bs', type=int)
    ap.add_argument('--lr', type=float, default=3e-3)
    ap.add_argument('--seed', type=int, default=1234)
    ap.add_argument('--name')
    ap.add_argument('--out', default=HERE)
    a = ap.parse_args()
    dflt = dict(layers=1, d=64, heads=2, steps=600, bs=32, name='draft') if a.draft else \
        dict(layers=4, d=128, heads=4, steps=600, bs=16, name='charlm')
    for k, v in dflt.items():
        if getattr(a, k) is None:
            setattr(a, k, v)

    torch.manual_seed(a.seed)
    torch.set_num_threads(2)
    train_txt, val_txt, nch = load_kjv()
    train = torch.tensor(list(train_txt.encode('utf-8')), dtype=torch.long)
    val = torch.tensor(list(val_txt.encode('utf-8')), dtype=torch.long)
    print(f'KJV: {nch} chapters, train {len(train)} bytes, val {len(val)} bytes', flush=True)

    model = CharLM(a.layers, a.d, a.heads, a.ctx, 4 * a.d)
    nparam = sum(p.numel() for p in model.parameters())
    print(f'{a.name}: {a.layers} layers, d={a.d}, heads={a.heads}, ctx={a.ctx}, {nparam} parameters', flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, betas=(0.9, 0.99), weight_decay=0.01)
    warm = min(100, a.steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * 0.5 * (1 + math.cos(math.pi * min(1.0, s / a.steps))))
    gen = torch.Generator().manual_seed(a.seed)
    t0 = time.time()
    for step in range(a.steps):
        x, y = batches(train, a.ctx, a.bs, gen)
        loss = F.cross_entropy(model(x).reshape(-1, VOCAB), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        if step % 100 == 0 or step == a.steps - 1:
            print(f'step {step:5d} train loss {loss.item():.4f}  {time.time() - t0:.0f}s', flush=True)
    train_s = time.time() - t0
    model.eval()
    vl = val_loss(model, val, a.ctx)
    print(f'validation loss {vl:.4f} nats/byte ({vl / math.log(2):.4f} bits/byte), trained {train_s:.0f}s', flush=True)

    # ------------------------------------------------------------------ export
    step_mod = Step(model).eval()
    H, hd, C = a.heads, a.d // a.heads, a.ctx
    names_in = ['token', 'pos']
    names_out = ['logits']
    caches = []
    for i in range(a.layers):
        names_in += [f'k_cache_{i}', f'v_cache_{i}']
        names_out += [f'k_cache_{i}_out', f'v_cache_{i}_out']
        caches += [torch.zeros(1, H, C, hd), torch.zeros(1, H, C, hd)]
    onnx_path = os.path.join(a.out, f'{a.name}.onnx')
    with torch.no_grad():
        torch.onnx.export(step_mod, (torch.tensor([[65]]), torch.tensor([0]), *caches), onnx_path,
                          input_names=names_in, output_names=names_out, opset_version=17,
                          do_constant_folding=True)
    import onnx
    om = onnx.load(onnx_path)
    onnx.checker.check_model(om)
    ops = sorted({n.op_type for n in om.graph.node})
    print(f'exported {onnx_path}: {os.path.getsize(onnx_path)} bytes, ops {ops}', flush=True)

    # ------------------------------------------------- reference (torch) + self-check
    prompt = 'And God said, Let there be'
    pids = list(prompt.encode('utf-8'))
    gen_n = 40
    ids = greedy(model, pids, gen_n)
    with torch.no_grad():
        full = model(torch.tensor([ids[:-1]]))[0]  # logits at every position
        # the step graph in torch must reproduce the full forward
        cs = [c.clone() for c in caches]
        maxdiff = 0.0
        for t in range(len(ids) - 1):
            out = step_mod(torch.tensor([[ids[t]]]), torch.tensor([t]), *cs)
            cs = list(out[1:])
            maxdiff = max(maxdiff, (out[0][0] - full[t]).abs().max().item())
    print(f'torch step-vs-full max |diff| {maxdiff:.2e}', flush=True)
    assert maxdiff < 1e-4
    steps_ref = list(range(len(ids) - 1))
    ref = dict(
        model=f'{a.name}.onnx', config=model.cfg, prompt=prompt,
        prompt_ids=pids, greedy_ids=ids, greedy_text=bytes(ids).decode('utf-8', 'replace'),
        continuation=bytes(ids[len(pids):]).decode('utf-8', 'replace'),
        inputs=names_in, outputs=names_out,
        state=[[f'{n}_out', n] for n in names_in[2:]],
        # logits after feeding ids[t] at pos t (all steps, rounded to 1e-6)
        logits={str(t): [round(float(v), 6) for v in full[t]] for t in steps_ref},
        val_loss=round(vl, 4), steps=a.steps, seed=a.seed, params=nparam, train_seconds=round(train_s),
        torch_step_vs_full_maxdiff=maxdiff,
    )
    with open(os.path.join(a.out, f'{a.name}.reference.json' if a.name != 'charlm' else 'reference.json'), 'w') as f:
        json.dump(ref, f)
    # a sample: greedy from a newline, 300 bytes
    s = greedy(model, list(b'\n'), 200)
    print('sample (greedy):\n' + bytes(s).decode('utf-8', 'replace'), flush=True)
    torch.manual_seed(a.seed)
    ids2 = list(b'\n')
    with torch.no_grad():
        for _ in range(200):
            lo = model(torch.tensor([ids2[-model.ctx:]]))[0, -1] / 0.8
            ids2.append(int(torch.multinomial(lo.softmax(-1), 1)))
    print('sample (T=0.8):\n' + bytes(ids2).decode('utf-8', 'replace'), flush=True)


if __name__ == '__main__':
    main()
