// The size of an object in a git folder, read from its header without inflating it: a loose object's
// first bytes ("blob 123\0"), or a packed one's entry header found through the pack's index (for a delta,
// the result size at the start of its data). isomorphic-git has no such call (its reads inflate the whole
// object), and an entry from a remote must be refused on its size before it is read.
import * as fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface PackIndex {
  idx: Buffer;
  count: number;
}

/** The objects fetches set aside as too large (id → declared size), in the git folder. */
export const SET_ASIDE_FILE = 'mnemo-set-aside.json';

/** Reads sizes in one git folder; pack indexes are parsed once each (packs never change, only appear). */
export class ObjectSizes {
  private readonly indexes = new Map<string, PackIndex | null>();
  private aside: Map<string, number> | undefined;

  constructor(private readonly gitdir: string) {}

  /** True when a fetch set the object aside (pack-guard.ts): this folder holds a stand-in, not it. */
  setAside(oid: string): boolean {
    return this.asideMap().has(oid);
  }

  /** Every object set aside here. */
  setAsideIds(): string[] {
    return [...this.asideMap().keys()];
  }

  addSetAside(entries: Iterable<readonly [string, number]>): void {
    const aside = this.asideMap();
    for (const [oid, size] of entries) aside.set(oid, size);
    const file = path.join(this.gitdir, SET_ASIDE_FILE);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(aside)));
    fs.renameSync(`${file}.tmp`, file);
  }

  private asideMap(): Map<string, number> {
    if (!this.aside) {
      let known = {};
      try {
        known = JSON.parse(fs.readFileSync(path.join(this.gitdir, SET_ASIDE_FILE), 'utf8')) as object;
      } catch {
        // none yet
      }
      this.aside = new Map(Object.entries(known as Record<string, number>));
    }
    return this.aside;
  }

  /** The object's size in bytes, or null when this folder does not hold it. */
  size(oid: string): number | null {
    return this.loose(oid) ?? this.packed(oid);
  }

  private loose(oid: string): number | null {
    let fd: number;
    try {
      fd = fs.openSync(path.join(this.gitdir, 'objects', oid.slice(0, 2), oid.slice(2)), 'r');
    } catch {
      return null;
    }
    try {
      const head = inflateStart(readAt(fd, 0, 64));
      const match = /^[a-z]+ (\d+)\0/.exec(head.toString('latin1', 0, 32));
      return match ? Number(match[1]) : null;
    } finally {
      fs.closeSync(fd);
    }
  }

  private packed(oid: string): number | null {
    const dir = path.join(this.gitdir, 'objects', 'pack');
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith('.idx'));
    } catch {
      return null;
    }
    const want = Buffer.from(oid, 'hex');
    for (const name of names) {
      const index = this.index(path.join(dir, name));
      const offset = index && find(index, want);
      if (offset === null || offset === undefined) continue;
      const fd = fs.openSync(path.join(dir, `${name.slice(0, -4)}.pack`), 'r');
      try {
        return entrySize(fd, offset);
      } finally {
        fs.closeSync(fd);
      }
    }
    return null;
  }

  private index(file: string): PackIndex | null {
    if (this.indexes.has(file)) return this.indexes.get(file)!;
    let index: PackIndex | null = null;
    try {
      const idx = fs.readFileSync(file);
      // Version 2 only (what git, isomorphic-git and pack-writer.ts write); another is read by inflating.
      if (idx.readUInt32BE(0) === 0xff744f63 && idx.readUInt32BE(4) === 2) {
        index = { idx, count: idx.readUInt32BE(8 + 255 * 4) };
      }
    } catch {
      index = null;
    }
    this.indexes.set(file, index);
    return index;
  }
}

/** The pack offset of `oid` in an idx v2, or null. */
function find({ idx, count }: PackIndex, oid: Buffer): number | null {
  const first = oid[0]!;
  let lo = first === 0 ? 0 : idx.readUInt32BE(8 + (first - 1) * 4);
  let hi = idx.readUInt32BE(8 + first * 4);
  const oids = 8 + 256 * 4;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = idx.compare(oid, 0, 20, oids + mid * 20, oids + mid * 20 + 20);
    if (c === 0) {
      const offsets = oids + count * 24;
      const small = idx.readUInt32BE(offsets + mid * 4);
      if (!(small & 0x80000000)) return small;
      const large = offsets + count * 4 + (small & 0x7fffffff) * 8;
      return Number(idx.readBigUInt64BE(large));
    }
    // The entry compared with oid: positive when the entry sorts after it.
    if (c > 0) hi = mid;
    else lo = mid + 1;
  }
  return null;
}

/** A pack entry's size: its header's, or for a delta the result size its data starts with. */
function entrySize(fd: number, offset: number): number | null {
  const b = readAt(fd, offset, 64);
  let i = 0;
  let byte = b[i++] ?? 0;
  const type = (byte >> 4) & 7;
  let size = byte & 0x0f;
  let scale = 16;
  while (byte & 0x80 && i < b.length) {
    byte = b[i++]!;
    size += (byte & 0x7f) * scale;
    scale *= 128;
  }
  if (type !== 6 && type !== 7) return size;
  if (type === 6) while (i < b.length && b[i++]! & 0x80);
  else i += 20;
  const data = inflateStart(readAt(fd, offset + i, 64));
  let at = 0;
  const varint = (): number => {
    let n = 0;
    let s = 1;
    for (;;) {
      const v = data[at++];
      if (v === undefined) return n;
      n += (v & 0x7f) * s;
      s *= 128;
      if (!(v & 0x80)) return n;
    }
  };
  varint(); // the base's size
  return varint();
}

function readAt(fd: number, position: number, length: number): Buffer {
  const b = Buffer.alloc(length);
  const n = fs.readSync(fd, b, 0, length, position);
  return b.subarray(0, n);
}

/** What the first compressed bytes inflate to (a partial stream: no error for its missing end). */
function inflateStart(b: Buffer): Buffer {
  try {
    return zlib.inflateSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch {
    return Buffer.alloc(0);
  }
}
