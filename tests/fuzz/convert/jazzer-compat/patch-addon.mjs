// Makes the registry's prebuilt Jazzer.js addon (built against glibc 2.38 and
// GCC 13's libstdc++) load on Debian 12 (glibc 2.36, GCC 12), without any
// download: the addon needs only three symbols from the newer libraries
// (__isoc23_strtol, __isoc23_strtoul, std::ios_base_library_init), which
// compat.cpp defines. Here the two version requirements that name those
// libraries' new versions are marked VER_FLG_WEAK, so the loader accepts
// their absence and resolves the three symbols from the LD_PRELOADed shim.
// Usage: node patch-addon.mjs <in.node> <out.node>
import { readFileSync, writeFileSync } from 'node:fs';

const SHT_GNU_VERNEED = 0x6ffffffe;
const VER_FLG_WEAK = 0x2;
const NEWER = new Set(['GLIBC_2.38', 'GLIBCXX_3.4.32']);

function cstr(buf, off) {
  let end = off;
  while (buf[end] !== 0) end++;
  return buf.toString('latin1', off, end);
}

export function patchAddon(buf) {
  if (buf.readUInt32BE(0) !== 0x7f454c46 || buf[4] !== 2 || buf[5] !== 1)
    throw new Error('not a little-endian ELF64 file');
  const shoff = Number(buf.readBigUInt64LE(0x28));
  const shentsize = buf.readUInt16LE(0x3a);
  const shnum = buf.readUInt16LE(0x3c);
  const sec = (i) => {
    const o = shoff + i * shentsize;
    return {
      type: buf.readUInt32LE(o + 4),
      offset: Number(buf.readBigUInt64LE(o + 0x18)),
      link: buf.readUInt32LE(o + 0x28),
      info: buf.readUInt32LE(o + 0x2c),
    };
  };
  const patched = [];
  for (let i = 0; i < shnum; i++) {
    const s = sec(i);
    if (s.type !== SHT_GNU_VERNEED) continue;
    const strtab = sec(s.link).offset;
    let vn = s.offset;
    for (let n = 0; n < s.info; n++) {
      const cnt = buf.readUInt16LE(vn + 2);
      let aux = vn + buf.readUInt32LE(vn + 8);
      for (let k = 0; k < cnt; k++) {
        const name = cstr(buf, strtab + buf.readUInt32LE(aux + 8));
        if (NEWER.has(name)) {
          buf.writeUInt16LE(buf.readUInt16LE(aux + 4) | VER_FLG_WEAK, aux + 4);
          patched.push(name);
        }
        aux += buf.readUInt32LE(aux + 12);
      }
      vn += buf.readUInt32LE(vn + 12);
    }
  }
  return patched;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  const buf = readFileSync(input);
  const patched = patchAddon(buf);
  writeFileSync(output, buf);
  console.log(`patched ${output}: weak ${patched.join(', ') || '(none needed)'}`);
}
