// Builds ZIP files byte by byte, so tests can produce what no well-behaved zip tool would: lying sizes,
// duplicate names, overlapping entries, non-UTF-8 names, links, mismatched local headers.
import { crc32 } from 'node:zlib';
import { deflateSync } from 'fflate';

export interface RawEntry {
  name: string | Uint8Array;
  /** Uncompressed content (compressed here unless `stored`), or the exact bytes with `raw`. */
  content?: string | Uint8Array;
  stored?: boolean;
  /** Bytes to put as the entry's data instead of compressing `content`. */
  raw?: Uint8Array;
  method?: number;
  /** Override the declared sizes / checksum. */
  size?: number;
  compressedSize?: number;
  crc?: number;
  flags?: number;
  /** "Version made by": 0x031e = Unix (external attributes carry the file mode). */
  madeBy?: number;
  external?: number;
  /** A different name in the local header. */
  localName?: string;
}

const enc = new TextEncoder();
const bytesOf = (v: string | Uint8Array): Uint8Array => (typeof v === 'string' ? enc.encode(v) : v);

export function unixMode(mode: number): { madeBy: number; external: number } {
  return { madeBy: 0x031e, external: (mode << 16) >>> 0 };
}

interface Built {
  local: Uint8Array;
  central: (offset: number) => Uint8Array;
}

function build(entry: RawEntry): Built {
  const name = bytesOf(entry.name);
  const content = bytesOf(entry.content ?? '');
  const method = entry.method ?? (entry.stored ? 0 : 8);
  const data = entry.raw ?? (method === 8 ? deflateSync(content) : content);
  const size = entry.size ?? content.length;
  const compressedSize = entry.compressedSize ?? data.length;
  const crc = entry.crc ?? crc32(content);
  const flags = entry.flags ?? 0x0800;
  const localName = entry.localName === undefined ? name : enc.encode(entry.localName);

  const local = new Uint8Array(30 + localName.length + data.length);
  const lv = new DataView(local.buffer);
  lv.setUint32(0, 0x04034b50, true);
  lv.setUint16(4, 20, true);
  lv.setUint16(6, flags, true);
  lv.setUint16(8, method, true);
  lv.setUint32(14, crc, true);
  lv.setUint32(18, compressedSize, true);
  lv.setUint32(22, size, true);
  lv.setUint16(26, localName.length, true);
  local.set(localName, 30);
  local.set(data, 30 + localName.length);

  const central = (offset: number): Uint8Array => {
    const c = new Uint8Array(46 + name.length);
    const cv = new DataView(c.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, entry.madeBy ?? 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, flags, true);
    cv.setUint16(10, method, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, compressedSize, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(38, entry.external ?? 0, true);
    cv.setUint32(42, offset, true);
    c.set(name, 46);
    return c;
  };
  return { local, central };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function eocd(count: number, cdSize: number, cdOffset: number, disk = 0): Uint8Array {
  const e = new Uint8Array(22);
  const v = new DataView(e.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(4, disk, true);
  v.setUint16(8, count, true);
  v.setUint16(10, count, true);
  v.setUint32(12, cdSize, true);
  v.setUint32(16, cdOffset, true);
  return e;
}

export function rawZip(entries: RawEntry[], options: { disk?: number } = {}): Uint8Array {
  const built = entries.map(build);
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const b of built) {
    centrals.push(b.central(offset));
    locals.push(b.local);
    offset += b.local.length;
  }
  const cd = concat(centrals);
  return concat([...locals, cd, eocd(entries.length, cd.length, offset, options.disk)]);
}

/** Two entries whose data overlap: the first one's stored data *is* the second one's record. */
export function overlappingZip(): Uint8Array {
  const inner = build({ name: 'b.md', content: 'x'.repeat(1000) });
  const outer = build({ name: 'a.md', content: inner.local, stored: true });
  const innerOffset = 30 + 'a.md'.length;
  const cd = concat([outer.central(0), inner.central(innerOffset)]);
  return concat([outer.local, cd, eocd(2, cd.length, outer.local.length)]);
}

/** A ZIP64 end-of-archive locator in front of a normal end record. */
export function zip64Zip(): Uint8Array {
  const normal = rawZip([{ name: 'a.md', content: 'hello' }]);
  const locator = new Uint8Array(20);
  new DataView(locator.buffer).setUint32(0, 0x07064b50, true);
  const cutAt = normal.length - 22;
  return concat([normal.subarray(0, cutAt), locator, normal.subarray(cutAt)]);
}
