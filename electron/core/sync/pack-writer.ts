// Many new objects as one pack file and its index (git's pack v2 and idx v2 formats), instead of one
// loose file each: on the test machine a loose object costs about 5 ms of file-system metadata work, so a
// first sync of 10,000 files spent most of a minute creating files. The pack is written under a temp name
// and renamed before its index is, so a reader never finds an index without its pack.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const TYPE = { commit: 1, tree: 2, blob: 3 } as const;

function header(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  size = Math.floor(size / 16);
  while (size > 0) {
    bytes.push(byte | 0x80);
    byte = size & 0x7f;
    size = Math.floor(size / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/** Writes `objects` (oid → content) as one pack in `gitdir`; returns the pack's name. */
export function writePack(
  gitdir: string,
  objects: ReadonlyMap<string, Buffer>,
  type: keyof typeof TYPE = 'blob',
): string {
  const entries = [...objects].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const parts: Buffer[] = [Buffer.from('PACK'), u32(2), u32(entries.length)];
  let offset = 12;
  const index: { oid: string; offset: number; crc: number }[] = [];
  for (const [oid, content] of entries) {
    const packed = Buffer.concat([header(TYPE[type], content.length), deflateSync(content)]);
    index.push({ oid, offset, crc: crc32(packed) });
    parts.push(packed);
    offset += packed.length;
  }
  const body = Buffer.concat(parts);
  const packSha = createHash('sha1').update(body).digest();
  const pack = Buffer.concat([body, packSha]);

  const fanout = Buffer.alloc(256 * 4);
  let count = 0;
  for (let byte = 0; byte < 256; byte++) {
    while (count < index.length && parseInt(index[count]!.oid.slice(0, 2), 16) <= byte) count++;
    fanout.writeUInt32BE(count, byte * 4);
  }
  if (index.some((e) => e.offset >= 0x80000000)) throw new Error('pack too large for 4-byte offsets');
  const idxBody = Buffer.concat([
    Buffer.from([0xff, 0x74, 0x4f, 0x63]),
    u32(2),
    fanout,
    ...index.map((e) => Buffer.from(e.oid, 'hex')),
    ...index.map((e) => u32(e.crc)),
    ...index.map((e) => u32(e.offset)),
    packSha,
  ]);
  const idx = Buffer.concat([idxBody, createHash('sha1').update(idxBody).digest()]);

  const dir = path.join(gitdir, 'objects', 'pack');
  fs.mkdirSync(dir, { recursive: true });
  const name = `pack-${packSha.toString('hex')}`;
  for (const [ext, data] of [
    ['pack', pack],
    ['idx', idx],
  ] as const) {
    const file = path.join(dir, `${name}.${ext}`);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  }
  return name;
}
