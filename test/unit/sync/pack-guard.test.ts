// The pack guard on packs built here byte by byte (small limits, so each case is cheap): what it hands on
// must be a pack real git accepts (`git index-pack` checks every object and the trailer), with the same
// objects at the same offsets except the ones set aside, and what it cannot set aside ends the answer.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { GitHttpResponse, HttpClient } from 'isomorphic-git';
import {
  filler,
  guardedHttp,
  PackLimitError,
  type PackLimits,
  type SetAside,
} from '../../../electron/core/sync/pack-guard.js';

const LIMITS: PackLimits = {
  packBytes: 1024 * 1024,
  objects: 100,
  blobBytes: 4096,
  otherBytes: 2048,
  scanBytes: 1024 * 1024,
  answerBytes: 1024,
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

function header(type: number, size: number): number[] {
  const out: number[] = [];
  let b = (type << 4) | (size & 0x0f);
  size = Math.floor(size / 16);
  while (size > 0) {
    out.push(b | 0x80);
    b = size & 0x7f;
    size = Math.floor(size / 128);
  }
  out.push(b);
  return out;
}

/** A delta's `base-relative` offset varint, as git encodes it. */
function ofs(rel: number): number[] {
  const out = [rel & 0x7f];
  while ((rel >>= 7) > 0) out.unshift(0x80 | (--rel & 0x7f));
  return out;
}

type Obj =
  | { type: 'blob' | 'tree'; content: Buffer; declared?: number }
  | { type: 'delta'; base: number; data: Buffer };

/** A pack of `objects` (a delta names its base by index); returns it and each object's offset. */
function pack(objects: Obj[]): { bytes: Buffer; offsets: number[] } {
  const parts: Buffer[] = [Buffer.from('PACK'), Buffer.from([0, 0, 0, 2]), Buffer.alloc(4)];
  parts[2]!.writeUInt32BE(objects.length);
  let at = 12;
  const offsets: number[] = [];
  for (const o of objects) {
    offsets.push(at);
    const part =
      o.type === 'delta'
        ? Buffer.concat([
            Buffer.from([...header(6, o.data.length), ...ofs(at - offsets[o.base]!)]),
            zlib.deflateSync(o.data),
          ])
        : Buffer.concat([
            Buffer.from(header(o.type === 'blob' ? 3 : 2, o.declared ?? o.content.length)),
            zlib.deflateSync(o.content),
          ]);
    parts.push(part);
    at += part.length;
  }
  const body = Buffer.concat(parts);
  return { bytes: Buffer.concat([body, createHash('sha1').update(body).digest()]), offsets };
}

/** A delta that copies `base` whole `times` times: its result is `times` × the base's size. */
function repeatDelta(baseSize: number, times: number): Buffer {
  const copy = [0x80 | 0x10 | 0x20, baseSize & 0xff, (baseSize >> 8) & 0xff];
  return Buffer.from([
    ...varint(baseSize),
    ...varint(baseSize * times),
    ...Array.from({ length: times }, () => copy).flat(),
  ]);
}

const pkt = (b: Buffer): Buffer =>
  Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b]);

/** The upload-pack answer carrying `bytes`: NAK, the pack in band 1 (small lines), a progress line, flush. */
function answer(bytes: Buffer): Buffer {
  const lines = [pkt(Buffer.from('NAK\n'))];
  for (let i = 0; i < bytes.length; i += 1000) {
    lines.push(pkt(Buffer.concat([Buffer.from([1]), bytes.subarray(i, i + 1000)])));
    if (i === 0) lines.push(pkt(Buffer.from('\u0002Counting objects: 1\n')));
  }
  lines.push(Buffer.from('0000'));
  return Buffer.concat(lines);
}

/** Runs `bytes` through the guard (arriving in chunks of 333 bytes); returns the pack it hands on. */
async function guard(bytes: Buffer): Promise<{ pack: Buffer; setAside: SetAside[] }> {
  const raw = answer(bytes);
  const inner: HttpClient = {
    request: async (): Promise<GitHttpResponse> => ({
      url: 'http://127.0.0.1/x.git/git-upload-pack',
      method: 'POST',
      statusCode: 200,
      statusMessage: 'OK',
      headers: {},
      body: (async function* () {
        for (let i = 0; i < raw.length; i += 333) yield raw.subarray(i, i + 333);
      })(),
    }),
  };
  const setAside: SetAside[] = [];
  const res = await guardedHttp(inner, LIMITS, setAside).request({
    url: 'http://127.0.0.1/x.git/git-upload-pack',
    method: 'POST',
    headers: {},
  });
  const chunks: Buffer[] = [];
  for await (const c of res.body!) chunks.push(Buffer.from(c));
  const all = Buffer.concat(chunks);
  const packParts: Buffer[] = [];
  for (let i = 0; i < all.length;) {
    const len = Number.parseInt(all.toString('latin1', i, i + 4), 16);
    if (len >= 5 && all[i + 4] === 1) packParts.push(all.subarray(i + 5, i + len));
    i += len < 4 ? 4 : len;
  }
  return { pack: Buffer.concat(packParts), setAside };
}

/** Real git's verdict on a pack: it indexes it (checking each object and the trailer). */
function gitIndexes(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-pack-guard-'));
  dirs.push(dir);
  execFileSync('git', ['init', '-q', '--bare', dir]);
  execFileSync('git', ['index-pack', '--stdin'], { cwd: dir, input: bytes });
  return execFileSync('git', ['cat-file', '--batch-all-objects', '--batch-check'], {
    cwd: dir,
    encoding: 'utf8',
  });
}

const blobOid = (b: Buffer): string =>
  createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');

describe('the pack guard', () => {
  it('hands on a pack within the limits byte for byte', async () => {
    const { bytes } = pack([
      { type: 'blob', content: Buffer.from('a fact\n') },
      { type: 'blob', content: Buffer.alloc(4000, 'y') },
    ]);
    const out = await guard(bytes);
    expect(out.pack.equals(bytes)).toBe(true);
    expect(out.setAside).toEqual([]);
  });

  it('sets a blob over the limit aside, by id, and keeps every offset (a later delta still resolves)', async () => {
    const big = Buffer.alloc(50_000, 'z');
    const small = Buffer.alloc(1000, 'b');
    const { bytes, offsets } = pack([
      { type: 'blob', content: big },
      { type: 'blob', content: small },
      { type: 'delta', base: 1, data: repeatDelta(1000, 2) },
    ]);
    const out = await guard(bytes);
    expect(out.setAside).toEqual([{ oid: blobOid(big), size: 50_000 }]);
    expect(out.pack.length).toBe(bytes.length);
    expect(out.pack.subarray(offsets[1]!, -20).equals(bytes.subarray(offsets[1]!, -20))).toBe(true);
    const listed = gitIndexes(out.pack);
    expect(listed).not.toContain(blobOid(big));
    expect(listed).toContain(blobOid(small));
    expect(listed).toContain(blobOid(Buffer.alloc(2000, 'b')));
  });

  it('sets aside a delta whose result is over the limit, and a delta built on what was set aside', async () => {
    const base = Buffer.alloc(1000, 'c');
    const { bytes } = pack([
      { type: 'blob', content: base },
      { type: 'delta', base: 0, data: repeatDelta(1000, 100) },
      { type: 'blob', content: Buffer.alloc(9000, 'd') },
      { type: 'delta', base: 2, data: Buffer.from([...varint(9000), ...varint(3), 3, 0x61, 0x62, 0x63]) },
    ]);
    const out = await guard(bytes);
    expect(out.setAside).toEqual([
      { oid: null, size: 100_000 },
      { oid: blobOid(Buffer.alloc(9000, 'd')), size: 9000 },
      { oid: null, size: 3 },
    ]);
    expect(gitIndexes(out.pack)).toContain(blobOid(base));
  });

  it.each([
    [
      'a blob that inflates to more than it declares',
      [{ type: 'blob', content: Buffer.alloc(3000), declared: 10 }],
    ],
    [
      'an oversized blob that inflates to more than it declares',
      [{ type: 'blob', content: Buffer.alloc(60_000), declared: 5000 }],
    ],
    ['a tree over its limit', [{ type: 'tree', content: Buffer.alloc(3000) }]],
    [
      'more objects than the limit',
      Array.from({ length: 101 }, (_, i) => ({ type: 'blob', content: Buffer.from(`${i}`) })),
    ],
    [
      'more bytes than the limit',
      Array.from({ length: 60 }, (_, i) => ({
        type: 'blob',
        content: createHash('sha512').update(`${i}`).digest().toString('hex').repeat(300),
      })),
    ],
  ] as [string, Obj[]][])('ends the answer before anything is handed on: %s', async (_, objects) => {
    const { bytes } = pack(objects);
    await expect(guard(bytes)).rejects.toBeInstanceOf(PackLimitError);
  });

  it('ends a pack cut short', async () => {
    const { bytes } = pack([{ type: 'blob', content: Buffer.from('x') }]);
    await expect(guard(bytes.subarray(0, bytes.length - 5))).rejects.toThrow(/ended early/);
  });

  it.each([16, 17, 100, 65_550, 65_551, 65_556, 131_090, 200_000])(
    'a filler of %i bytes is a valid entry of exactly that length',
    (length) => {
      const f = filler(length);
      expect(f.length).toBe(length);
      let size = f[0]! & 0x0f;
      for (let i = 1, shift = 4; i < 5; i++, shift += 7) size += (f[i]! & 0x7f) * 2 ** shift;
      const content = zlib.inflateSync(f.subarray(5));
      expect(content.length).toBe(size);
      expect(content.every((b) => b === 0)).toBe(true);
    },
  );
});
