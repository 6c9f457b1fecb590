#!/usr/bin/env python3
"""Writes the committed seed corpora tests/fuzz/corpus/<target>/ (small).

usage: python3 tests/fuzz/make-seeds.py   (from the repository root; needs
build/native/holo for the one genuine warm-store record)
"""
import glob, hashlib, os, shutil, struct, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
C = os.path.join(ROOT, 'tests', 'fuzz', 'corpus')


def put(target, name, data):
    d = os.path.join(C, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


# ---- fuzz_archive: every vector and small fixture, and a few bad vectors
for p in sorted(glob.glob(os.path.join(ROOT, 'tests/vectors/*.holo')) + glob.glob(os.path.join(ROOT, 'tests/fixtures/*.holo'))):
    if os.path.getsize(p) > 16384:
        continue  # mlp.holo: 200 KB of weights add nothing tiny-mlp lacks
    kind = 'vec' if '/vectors/' in p else 'fix'
    put('fuzz_archive', f'{kind}-{os.path.basename(p)}', open(p, 'rb').read())
for n in ['bad-overlap', 'bad-topolog', 'bad-symbol', 'bad-attr-payload', 'bad-const-range']:
    put('fuzz_archive', f'{n}.holo', open(os.path.join(ROOT, 'tests/vectors/bad', n + '.holo'), 'rb').read())

# ---- fuzz_execute: control bytes (see fuzz_execute.c)
#  [archive] [flags] [n_exec-1] then per execution: op, per input: spec, (rank), dims.., (delta), plen, pattern
seeds = {
    'mlp-plain': bytes([0, 0, 0, 0, 0, 4, 0, 0, 0x80, 0x3f]),
    'mlp-budget-evict': bytes([0, 3, 3, 0, 0, 4, 1, 2, 3, 4, 1, 0, 0, 2, 0, 0]),
    'cse-repeat-addressed': bytes([1, 0, 2, 1, 0, 0, 2, 1, 0, 0]),
    'shared-two-inputs': bytes([2, 2, 3, 0, 0, 4, 9, 9, 9, 9, 0, 0, 0, 0, 0, 0, 0, 0, 2]),
    'cone-store-nocone': bytes([3, 0x18, 2, 0, 0, 0, 1, 0, 4, 0xff, 0xff, 0xff, 0x7f]),
    'symbolic-bind-2^31': bytes([4, 0, 1, 0, 2, 250, 0, 0, 2, 252, 0]),
    'symbolic-explicit-rank9': bytes([4, 0, 1, 0, 5, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 1, 5, 2, 3, 4, 0]),
    'cnn-fail-alloc-7': bytes([5, 0x20, 7, 0, 0, 0, 0, 0]),
    'refine-relu': bytes([6, 0, 0, 0x05, 0, 4, 0, 0, 0x80, 0xbf]),
    'refine-halve-retry': bytes([7, 0, 0, 0x95, 0, 4, 0, 0, 0x80, 0x3f]),
    'wrong-count': bytes([2, 0, 1, 0xa0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0]),
    'length-delta': bytes([0, 0, 0, 0x10, 0, 0xfc, 0]),
    'null-bytes': bytes([1, 0, 0, 0x40, 0, 0]),
    'nan-inf-input': bytes([0, 0, 0, 0, 0, 8, 0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0xff]),
    'budget-change': bytes([0, 5, 3, 3, 2, 0, 0, 3, 4, 0, 0, 2, 3, 0, 0, 0]),
    'verify-constants': bytes([5, 0x40, 0, 0, 0, 0]),
}
for k, v in seeds.items():
    put('fuzz_execute', k, v)

# ---- fuzz_warm_store: the genuine record of cone.holo's cone value, and variants
tmp = tempfile.mkdtemp()
try:
    subprocess.run([os.path.join(ROOT, 'build/native/holo'), 'info', os.path.join(ROOT, 'tests/fixtures/cone.holo'),
                    '--warm-store', tmp], check=True, stdout=subprocess.DEVNULL)
    [rec] = [open(os.path.join(tmp, f), 'rb').read() for f in os.listdir(tmp) if f.endswith('.hws')]
finally:
    shutil.rmtree(tmp)


LABEL_LEN = 71  # 'sha256:' + 64 lowercase hex
H = 8 + LABEL_LEN  # dtype at H, rank at H + 4, dims from H + 8


def record(label, dtype, dims, data):
    """A record of docs/warm-store.md: "HOLOWS2\\0" | label | u32 dtype | u32 rank | i64 dims | digest | bytes."""
    assert len(label) == LABEL_LEN
    meta = struct.pack('<II', dtype, len(dims)) + b''.join(struct.pack('<q', d) for d in dims)
    pre = b'holo/content/v1\0' + meta + data
    return b'HOLOWS2\0' + label + meta + hashlib.sha256(pre).digest() + data


label = rec[8:H]  # the label the core asks for (and the record names)
other = label[:-1] + (b'1' if label[-1:] == b'0' else b'0')  # another well-formed label
payload = rec[H + 8 + 16 + 32:]
assert label.startswith(b'sha256:') and record(label, 1, [8, 8], payload) == rec, 'record layout changed: update make-seeds.py'
put('fuzz_warm_store', 'genuine', rec)
put('fuzz_warm_store', 'truncated', rec[:171])
put('fuzz_warm_store', 'truncated-label', rec[:50])
put('fuzz_warm_store', 'header-only', rec[:H + 8])
flipped = bytearray(rec); flipped[271] ^= 0x10
put('fuzz_warm_store', 'bitflip', bytes(flipped))
put('fuzz_warm_store', 'rank9', rec[:H + 4] + struct.pack('<I', 9) + rec[H + 8:])
put('fuzz_warm_store', 'dtype0', rec[:H] + struct.pack('<I', 0) + rec[H + 4:])
put('fuzz_warm_store', 'huge-dims', rec[:H + 8] + struct.pack('<qq', 1 << 31, 1 << 31) + rec[H + 24:])
put('fuzz_warm_store', 'neg-dim', rec[:H + 8] + struct.pack('<qq', -8, -8) + rec[H + 24:])
put('fuzz_warm_store', 'wrong-magic', b'HOLOWS1\0' + rec[8:])
# The same value in the previous format (HOLOWS1: no label): refused.
put('fuzz_warm_store', 'v1-record', b'HOLOWS1\0' + rec[H:])
# The genuine record filed under another label (mis-keyed, renamed, swapped):
# refused in both modes, even with HOLO_OPT_TRUST_STORE.
put('fuzz_warm_store', 'other-label', rec[:8] + other + rec[H:])
put('fuzz_warm_store', 'bad-label-hex', rec[:20] + b'G' + rec[21:])
# Self-consistent records of the wrong value naming the label asked: accepted
# even when verifying (the digest covers the record's own content, not the
# label's meaning); naming another label: refused.
put('fuzz_warm_store', 'consistent-wrong-shape', record(label, 1, [4, 16], payload))
put('fuzz_warm_store', 'consistent-wrong-dtype', record(label, 6, [8, 8], payload))
put('fuzz_warm_store', 'consistent-rank0', record(label, 1, [], payload[:4]))
put('fuzz_warm_store', 'consistent-empty', record(label, 1, [0, 8], b''))
put('fuzz_warm_store', 'consistent-wrong-shape-other-label', record(other, 1, [4, 16], payload))
print('seeds written under', C)
