// The pack a fetch receives, read as it arrives and before isomorphic-git sees it. isomorphic-git collects
// the pack and then inflates every object whole, in memory, to hash and index it, and it offers no hook
// between the two: a file of a GiB of zeros (a few MB on the wire) cost a device gigabytes. Its HTTP
// client is the one place that sees the stream, so the upload-pack answer is wrapped there.
//
// Each object's declared size is read from its header (for a delta, the result size at the start of its
// data) before anything is inflated whole. A blob above the biggest cap an entry of a space has is not
// handed on: it is scanned in a streaming inflater (constant memory: to find where it ends, check that it
// is no longer than it says, and learn its id), and its bytes are replaced by a blob of zeros of exactly
// the same length, so every later offset in the pack (ofs-deltas) still holds. A delta built on a replaced
// object is replaced as well. The replaced objects are reported (by id where it can be known), and the
// sync refuses the entries that name them: the rest of the space syncs. What cannot be set aside (an
// oversized commit or tree, a pack too large or with too many objects, sizes that lie) ends the fetch
// before isomorphic-git inflates anything, with a message that says so.
import type { GitHttpResponse, HttpClient } from 'isomorphic-git';
import {
  mib,
  NOTHING_CHANGED,
  PackLimitError,
  PackScanner,
  type PackLimits,
  type SetAside,
} from './pack-scan.js';

export { PackLimitError, filler, type PackLimits, type SetAside } from './pack-scan.js';

/** `inner`, with every answer bounded and upload-pack answers read through the pack guard. */
export function guardedHttp(inner: HttpClient, limits: PackLimits, setAside: SetAside[]): HttpClient {
  return {
    async request(req) {
      const res: GitHttpResponse = await inner.request(req);
      if (!res.body) return res;
      const pack = req.method === 'POST' && /\/git-upload-pack$/.test(new URL(req.url).pathname);
      return {
        ...res,
        body: pack ? guardPack(res.body, limits, setAside) : bounded(res.body, limits.answerBytes),
      };
    },
  };
}

async function* bounded(body: AsyncIterableIterator<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    if (seen > max)
      throw new PackLimitError(`The remote's answer is larger than ${mib(max)}; ${NOTHING_CHANGED}.`);
    yield chunk;
  }
}

/** The upload-pack answer (pkt-lines; side band 1 carries the pack), with the pack checked and rewritten. */
async function* guardPack(
  body: AsyncIterableIterator<Uint8Array>,
  limits: PackLimits,
  setAside: SetAside[],
): AsyncGenerator<Uint8Array> {
  const scanner = new PackScanner(limits, setAside);
  let rest = Buffer.alloc(0);
  try {
    for await (const chunk of body) {
      rest = rest.length === 0 ? Buffer.from(chunk) : Buffer.concat([rest, chunk]);
      let at = 0;
      const out: Buffer[] = [];
      while (rest.length - at >= 4) {
        const hex = rest.toString('latin1', at, at + 4);
        if (!/^[0-9a-f]{4}$/i.test(hex)) {
          throw new PackLimitError(`The remote's answer is not a git pack; ${NOTHING_CHANGED}.`);
        }
        const len = Number.parseInt(hex, 16);
        const size = len < 4 ? 4 : len;
        if (rest.length - at < size) break;
        const line = rest.subarray(at, at + size);
        at += size;
        if (size > 4 && line[4] === 1) {
          for (const piece of await scanner.push(line.subarray(5))) out.push(...frames(piece));
        } else out.push(Buffer.from(line));
      }
      rest = rest.subarray(at);
      for (const b of out) yield b;
    }
    for (const piece of await scanner.end()) for (const b of frames(piece)) yield b;
  } finally {
    scanner.close();
    await body.return?.();
  }
}

/** Pack bytes as side-band-64k lines of band 1. */
function frames(data: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < data.length; i += 65515) {
    const part = data.subarray(i, i + 65515);
    out.push(Buffer.from((part.length + 5).toString(16).padStart(4, '0')), Buffer.from([1]), part);
  }
  return out;
}
