// The pack format, object by object, for pack-guard.ts: each object's header and declared size, where
// its deflated data ends, and a same-length stand-in for one that is set aside. Format:
// https://git-scm.com/docs/pack-format (a varint size after the type; an ofs-delta names its base by a
// distance back, a ref-delta by id; a delta's data starts with the base's size and the result's).
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';

export interface PackLimits {
  /** Pack bytes in one fetch (isomorphic-git holds the whole pack in memory). */
  packBytes: number;
  objects: number;
  /** A blob (or a delta's result) above this is set aside: the biggest cap an entry of a space has. */
  blobBytes: number;
  /** A commit, tree or tag above this ends the fetch: the history cannot be read without it. */
  otherBytes: number;
  /** Bytes inflated while scanning set-aside objects, per fetch (bounds the CPU a hostile pack costs). */
  scanBytes: number;
  /** Any other answer (the ref advertisement). */
  answerBytes: number;
}

/** An object the fetch set aside: its id (null: a delta, whose id needs its base) and declared size. */
export interface SetAside {
  oid: string | null;
  size: number;
}

/** A fetch ended by the guard; the message is for the person (no path, no URL). */
export class PackLimitError extends Error {}

const MiB = 1024 * 1024;
export const mib = (n: number): string => `${Math.round(n / MiB)} MiB`;
const KIND: Record<number, string> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
export const NOTHING_CHANGED = 'nothing was changed here';

interface Header {
  type: number;
  size: number;
  /** Header bytes, the delta's base reference included. */
  length: number;
  baseOffset?: number;
  baseOid?: string;
}

/** An object header at the start of `b`, or null when more bytes are needed. */
function parseHeader(b: Buffer, offset: number): Header | null {
  let i = 0;
  if (b.length < 1) return null;
  let byte = b[i++]!;
  const type = (byte >> 4) & 7;
  let size = byte & 0x0f;
  let scale = 16;
  while (byte & 0x80) {
    if (i >= b.length) return null;
    byte = b[i++]!;
    size += (byte & 0x7f) * scale;
    scale *= 128;
    if (scale > 2 ** 53) throw new PackLimitError(`The remote sent a damaged pack; ${NOTHING_CHANGED}.`);
  }
  if (type === 6) {
    if (i >= b.length) return null;
    byte = b[i++]!;
    let rel = byte & 0x7f;
    while (byte & 0x80) {
      if (i >= b.length) return null;
      byte = b[i++]!;
      rel = (rel + 1) * 128 + (byte & 0x7f);
    }
    return { type, size, length: i, baseOffset: offset - rel };
  }
  if (type === 7) {
    if (b.length < i + 20) return null;
    return { type, size, length: i + 20, baseOid: b.toString('hex', i, i + 20) };
  }
  if (!KIND[type]) throw new PackLimitError(`The remote sent a damaged pack; ${NOTHING_CHANGED}.`);
  return { type, size, length: i };
}

/** A delta's result size: the second varint at the start of its (inflated) data. */
function deltaResultSize(data: Buffer): number {
  let i = 0;
  const varint = (): number => {
    let n = 0;
    let scale = 1;
    for (;;) {
      const byte = data[i++];
      if (byte === undefined) return n;
      n += (byte & 0x7f) * scale;
      scale *= 128;
      if (!(byte & 0x80)) return n;
    }
  };
  varint();
  return varint();
}

/**
 * `length` bytes that are a valid pack entry: a blob of zeros in stored deflate blocks, with a header of
 * five bytes (a varint padded with zero groups, which git and isomorphic-git both read).
 */
export function filler(length: number): Buffer {
  const blocks = Math.max(1, Math.ceil((length - 11) / 65540));
  const size = length - 11 - 5 * blocks;
  if (size < 0) throw new PackLimitError(`The remote sent a damaged pack; ${NOTHING_CHANGED}.`);
  const out = Buffer.alloc(length);
  out[0] = 0x80 | (3 << 4) | (size & 0x0f);
  out[1] = 0x80 | ((size >>> 4) & 0x7f);
  out[2] = 0x80 | ((size >>> 11) & 0x7f);
  out[3] = 0x80 | ((size >>> 18) & 0x7f);
  out[4] = (size >>> 25) & 0x7f;
  out[5] = 0x78;
  out[6] = 0x01;
  let at = 7;
  for (let k = 0; k < blocks; k++) {
    const n = Math.floor(size / blocks) + (k < size % blocks ? 1 : 0);
    out[at] = k === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(n, at + 1);
    out.writeUInt16LE(~n & 0xffff, at + 3);
    at += 5 + n; // the data: zeros already
  }
  out.writeUInt32BE((((size % 65521) << 16) | 1) >>> 0, at);
  return out;
}

/** An oversized object being scanned by a streaming inflater (its output counted, hashed, dropped). */
interface Scan {
  offset: number;
  header: Header;
  kind: number;
  inflater: zlib.Inflate;
  hash: ReturnType<typeof createHash> | null;
  out: number;
  ended: boolean;
  failed: boolean;
  /** Resolves once the stream ended, failed or was destroyed. */
  settled: Promise<void>;
}

export class PackScanner {
  private chunks: Buffer[] = [];
  private pendingLength = 0;
  /** Pack offset of the first pending byte. */
  private offset = 0;
  private left = -1;
  private received = 0;
  private scanned = 0;
  private done = false;
  /** Pending length at the last inflate that needed more bytes: the next try waits for twice as many. */
  private tried = 0;
  private scan: Scan | null = null;
  private readonly sha = createHash('sha1');
  private readonly types = new Map<number, number>();
  private readonly replaced = new Set<number>();
  private readonly replacedOids = new Set<string>();

  constructor(
    private readonly limits: PackLimits,
    private readonly setAside: SetAside[],
  ) {}

  /** Takes pack bytes; returns the bytes to hand on (each object once it is complete and checked). */
  async push(data: Buffer): Promise<Buffer[]> {
    this.received += data.length;
    if (this.received > this.limits.packBytes) {
      throw new PackLimitError(
        `The remote's changes are more than the ${mib(this.limits.packBytes)} a sync fetches at once; ${NOTHING_CHANGED}.`,
      );
    }
    if (this.done) return [];
    const out: Buffer[] = [];
    if (this.scan) await this.feed(data, out);
    else this.add(data);
    await this.parse(out);
    return out;
  }

  private async parse(out: Buffer[]): Promise<void> {
    while (!this.scan && !this.done && this.step(out)) {
      if (this.scan) {
        // What followed the header goes to the scan, which counts its own offset.
        const rest = this.flat();
        this.chunks = [];
        this.pendingLength = 0;
        await this.feed(rest, out);
      }
    }
  }

  /** The answer ended: what is still pending is parsed now, and the pack must be complete. */
  async end(): Promise<Buffer[]> {
    const out: Buffer[] = [];
    this.tried = 0;
    if (!this.scan) await this.parse(out);
    if (this.left !== -1 && !this.done) {
      throw new PackLimitError(`The remote's pack ended early; ${NOTHING_CHANGED}.`);
    }
    return out;
  }

  /** Frees a scan cut short (the answer failed or was refused). */
  close(): void {
    this.scan?.inflater.destroy();
    this.scan = null;
  }

  private add(b: Buffer): void {
    if (b.length === 0) return;
    this.chunks.push(b);
    this.pendingLength += b.length;
  }

  private flat(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private take(n: number): Buffer {
    const b = this.flat();
    const head = b.subarray(0, n);
    const rest = b.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.pendingLength = rest.length;
    this.offset += n;
    return head;
  }

  private emit(out: Buffer[], b: Buffer): void {
    this.sha.update(b);
    out.push(b);
  }

  /** Parses what the pending bytes allow; false when more are needed. */
  private step(out: Buffer[]): boolean {
    if (this.left === -1) {
      if (this.pendingLength < 12) return false;
      const head = this.take(12);
      if (head.toString('latin1', 0, 4) !== 'PACK' || head.readUInt32BE(4) !== 2) {
        throw new PackLimitError(`The remote's answer is not a git pack; ${NOTHING_CHANGED}.`);
      }
      this.left = head.readUInt32BE(8);
      if (this.left > this.limits.objects) {
        throw new PackLimitError(
          `The remote's changes are more than the ${this.limits.objects} objects a sync fetches at once; ${NOTHING_CHANGED}.`,
        );
      }
      this.emit(out, head);
      return true;
    }
    if (this.left === 0) {
      if (this.pendingLength < 20) return false;
      this.take(20);
      const trailer = this.sha.digest();
      out.push(trailer);
      this.done = true;
      return false;
    }
    if (this.pendingLength < 2 * this.tried) return false;
    const b = this.flat();
    const header = parseHeader(b, this.offset);
    if (!header) return false;
    const kind = this.kindOf(header);
    if (header.size > this.limits.blobBytes || (kind !== 3 && header.size > this.limits.otherBytes)) {
      this.refuseOther(kind, header.size);
      this.startScan(header, kind);
      return true;
    }
    let data: Buffer;
    let used: number;
    try {
      // `info` also returns the engine, whose bytesWritten is the input it consumed: where the object ends.
      const r = zlib.inflateSync(b.subarray(header.length), {
        info: true,
        maxOutputLength: Math.max(1, header.size),
      }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      data = r.buffer;
      used = r.engine.bytesWritten;
    } catch (error) {
      if ((error as { code?: string }).code === 'Z_BUF_ERROR') {
        this.tried = this.pendingLength;
        return false;
      }
      throw new PackLimitError(
        `The remote sent a damaged pack (an object is not what it declares); ${NOTHING_CHANGED}.`,
      );
    }
    this.tried = 0;
    if (data.length !== header.size) {
      throw new PackLimitError(
        `The remote sent a damaged pack (an object is not what it declares); ${NOTHING_CHANGED}.`,
      );
    }
    const offset = this.offset;
    const entry = this.take(header.length + used);
    this.types.set(offset, kind);
    this.left--;
    if (header.type === 6 || header.type === 7) {
      const result = deltaResultSize(data);
      const onReplaced =
        (header.baseOffset !== undefined && this.replaced.has(header.baseOffset)) ||
        (header.baseOid !== undefined && this.replacedOids.has(header.baseOid));
      if (result > this.limits.blobBytes || (kind !== 3 && result > this.limits.otherBytes)) {
        this.refuseOther(kind, result);
        this.replace(out, offset, entry.length, { oid: null, size: result });
        return true;
      }
      if (onReplaced) {
        this.replace(out, offset, entry.length, { oid: null, size: result });
        return true;
      }
    }
    this.emit(out, entry);
    return true;
  }

  /** The type an object resolves to (a delta's is its base's; a ref-delta's base may be elsewhere: blob). */
  private kindOf(h: Header): number {
    if (h.type === 6) {
      const base = this.types.get(h.baseOffset!);
      if (base === undefined) throw new PackLimitError(`The remote sent a damaged pack; ${NOTHING_CHANGED}.`);
      return base;
    }
    return h.type === 7 ? 3 : h.type;
  }

  private refuseOther(kind: number, size: number): void {
    if (kind === 3) return;
    throw new PackLimitError(
      `The remote's history holds a ${KIND[kind] ?? 'object'} of ${mib(size)}, larger than the ` +
        `${Math.round(this.limits.otherBytes / 1024)} KiB limit (no device of this app writes one); ` +
        `${NOTHING_CHANGED}. Remove that commit from the remote.`,
    );
  }

  private replace(out: Buffer[], offset: number, length: number, what: SetAside): void {
    this.replaced.add(offset);
    if (what.oid) this.replacedOids.add(what.oid);
    this.setAside.push(what);
    this.emit(out, filler(length));
  }

  private startScan(header: Header, kind: number): void {
    this.scanned += header.size;
    if (this.scanned > this.limits.scanBytes) {
      throw new PackLimitError(
        `The remote holds files larger than a sync reads past (${mib(this.limits.scanBytes)} in all); ` +
          `${NOTHING_CHANGED}. Remove them from the remote.`,
      );
    }
    const offset = this.offset;
    this.take(header.length);
    // Large output chunks: a GiB in 16 KiB events would be 65,536 callbacks.
    const inflater = zlib.createInflate({ chunkSize: MiB });
    const scan: Scan = {
      offset,
      header,
      kind,
      inflater,
      hash: null,
      out: 0,
      ended: false,
      failed: false,
      settled: new Promise((resolve) => {
        for (const event of ['end', 'close', 'error']) inflater.once(event, () => resolve());
      }),
    };
    // A whole blob can be hashed as it streams by (its id names the entry); a delta's id needs its base.
    if (header.type === 3) scan.hash = createHash('sha1').update(`blob ${header.size}\0`);
    inflater.on('data', (d: Buffer) => {
      scan.out += d.length;
      if (scan.out > header.size) {
        scan.failed = true;
        inflater.destroy();
        return;
      }
      scan.hash?.update(d);
    });
    inflater.on('end', () => (scan.ended = true));
    inflater.on('error', () => (scan.failed = true));
    this.scan = scan;
  }

  /** Feeds bytes to the scan; once its object ends, replaces it and goes on with what follows. */
  private async feed(data: Buffer, out: Buffer[]): Promise<void> {
    const scan = this.scan!;
    if (data.length === 0) return;
    const before = scan.inflater.bytesWritten;
    await new Promise<void>((resolve) => scan.inflater.write(data, () => resolve()));
    // Input left over means the stream ended in this chunk: its 'end' follows its last output.
    if (scan.inflater.bytesWritten - before < data.length && !scan.failed) await scan.settled;
    else await new Promise<void>((resolve) => setImmediate(resolve));
    if (scan.failed || scan.out > scan.header.size) {
      throw new PackLimitError(
        `The remote sent a damaged pack (an object is not what it declares); ${NOTHING_CHANGED}.`,
      );
    }
    if (!scan.ended) {
      this.offset += data.length;
      return;
    }
    if (scan.out !== scan.header.size) {
      throw new PackLimitError(
        `The remote sent a damaged pack (an object is not what it declares); ${NOTHING_CHANGED}.`,
      );
    }
    const used = scan.inflater.bytesWritten - before;
    this.offset += used;
    this.scan = null;
    this.types.set(scan.offset, scan.kind);
    this.left--;
    const length = this.offset - scan.offset;
    this.replace(out, scan.offset, length, {
      oid: scan.hash ? scan.hash.digest('hex') : null,
      size: scan.header.size,
    });
    this.add(data.subarray(used));
  }
}
