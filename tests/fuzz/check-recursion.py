#!/usr/bin/env python3
"""No recursion in the core: builds the direct call graph of runtime/*.c,
generation/*.c and kernels-wasm-simd/**/*.c from clang's LLVM IR and fails if any function can
reach itself (a cycle in the graph), so no archive can control stack depth.
Indirect calls (kernel infer/run, allocator, warm store, parallel_for) are
listed: none of those targets calls back into the runtime.

usage: python3 tests/fuzz/check-recursion.py   (from the repository root)
"""
import glob, re, subprocess, sys

# Self-calls whose depth is a constant, not data: name -> why.
ALLOW = {
    'holo_erfc': 'kernels-wasm-simd/math/erfc.c: erfc(z<0) = 2 - erfc(-z), one level (-z > 0; NaN does not recurse)',
}

srcs = sorted(glob.glob('runtime/*.c') + glob.glob('generation/*.c') + glob.glob('kernels-wasm-simd/**/*.c', recursive=True))
graph, indirect = {}, {}
for s in srcs:
    ir = subprocess.run(['clang-19', '-S', '-emit-llvm', '-O0', '-std=c11', '-Iruntime/include', '-Ikernels-wasm-simd/include',
                         '-Igeneration/include', '-Ikernels-wasm-simd', '-Iruntime', '-o', '-', s], check=True, capture_output=True, text=True).stdout
    fn = None
    for line in ir.splitlines():
        m = re.match(r'define .*?@([\w.]+)\(', line)
        if m:
            fn = m.group(1)
            graph.setdefault(fn, set())
            continue
        if line.startswith('}'):
            fn = None
            continue
        if fn and (' call ' in line or line.lstrip().startswith('call ') or ' invoke ' in line):
            m = re.search(r'call [^@%]*[@%]([\w.]+)\(', line)
            if not m:
                continue
            callee = m.group(1)
            if re.search(r'call [^@%]*@', line):
                if not callee.startswith('llvm.'):
                    graph[fn].add(callee)
            else:
                indirect.setdefault(fn, 0)
                indirect[fn] += 1

# Tarjan's SCC (iterative, so this checker itself has no deep recursion).
index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
for root in list(graph):
    if root in index:
        continue
    work = [(root, iter(sorted(graph.get(root, ()))))]
    index[root] = low[root] = counter[0]; counter[0] += 1; stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        advanced = False
        for w in it:
            if w not in graph:
                continue
            if w not in index:
                index[w] = low[w] = counter[0]; counter[0] += 1; stack.append(w); on.add(w)
                work.append((w, iter(sorted(graph[w]))))
                advanced = True
                break
            if w in on:
                low[v] = min(low[v], index[w])
        if advanced:
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                sccs.append(comp)

print(f'{len(graph)} functions in {len(srcs)} files; functions with indirect calls: {", ".join(sorted(indirect))}')
for c in [c for c in sccs if len(c) == 1 and c[0] in ALLOW]:
    print(f'bounded self-call allowed: {c[0]} -- {ALLOW[c[0]]}')
sccs = [c for c in sccs if not (len(c) == 1 and c[0] in ALLOW)]
if sccs:
    for c in sccs:
        print('RECURSION:', ' -> '.join(sorted(c)))
    sys.exit(1)
print('no recursion: the call graph is acyclic')
