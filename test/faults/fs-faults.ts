// A full disk, injected into a child process with `node --import dist/test/faults/fs-faults.js`. It wraps
// Node's own node:fs and fs.promises (never our code): once armed with a byte budget, writes to files under
// MNEMO_FAULT_DIR succeed until the budget is spent (the write that crosses it is cut short, as a real
// write on a filling disk is), and every later write, append, fsync, mkdir and rename there fails with
// ENOSPC until the layer is disarmed (the user freed some space). Writes elsewhere (stdout, pipes) pass.
//
// The worker arms it through globalThis.__mnemoFsFaults, so the startup checks run on a healthy disk.
import type * as NodeFs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import * as path from 'node:path';

export interface FsFaults {
  /** From now on, `bytes` more bytes fit; then the disk is full. */
  arm(bytes: number): void;
  disarm(): void;
  /** The disk refused at least one call since armed or since `clearTripped`. */
  readonly tripped: boolean;
  clearTripped(): void;
}

// The CommonJS object: its properties are what node:fs's named exports are synced from.
const fs = createRequire(import.meta.url)('node:fs') as typeof NodeFs;
const root = process.env.MNEMO_FAULT_DIR ? path.resolve(process.env.MNEMO_FAULT_DIR) : undefined;
let budget = Infinity;
let tripped = false;
const watched = new Set<number>(); // descriptors of files under root

const under = (p: unknown): boolean => {
  if (root === undefined) return false;
  if (typeof p !== 'string' && !(p instanceof URL) && !Buffer.isBuffer(p)) return false;
  const abs = path.resolve(p instanceof URL ? p.pathname : p.toString());
  return abs === root || abs.startsWith(root + path.sep);
};

function enospc(syscall: string): NodeJS.ErrnoException {
  tripped = true;
  const error = new Error(`ENOSPC: no space left on device, ${syscall}`) as NodeJS.ErrnoException;
  error.code = 'ENOSPC';
  error.errno = -28;
  error.syscall = syscall;
  return error;
}

/** How many of `n` bytes fit; throws ENOSPC when none do. */
function take(n: number, syscall: string): number {
  if (budget === Infinity || n === 0) return n;
  if (budget <= 0) throw enospc(syscall);
  const fits = Math.min(n, budget);
  budget -= fits;
  return fits;
}

const full = (): boolean => budget !== Infinity && budget <= 0;
const byteLength = (data: unknown): number =>
  typeof data === 'string'
    ? Buffer.byteLength(data)
    : ArrayBuffer.isView(data)
      ? data.byteLength
      : Array.isArray(data)
        ? data.reduce((s: number, b: NodeJS.ArrayBufferView) => s + b.byteLength, 0)
        : 0;

type AnyFn = (...args: any[]) => any; // eslint-disable-line @typescript-eslint/no-explicit-any
const target = fs as unknown as Record<string, AnyFn>;
const promises = fs.promises as unknown as Record<string, AnyFn>;

function wrap(obj: Record<string, AnyFn>, name: string, make: (orig: AnyFn) => AnyFn): void {
  const orig = obj[name];
  if (typeof orig === 'function') obj[name] = make(orig.bind(obj));
}

// Track descriptors opened under root.
wrap(target, 'openSync', (orig) => (p: unknown, ...rest: unknown[]) => {
  const fd = orig(p, ...rest) as number;
  if (under(p)) watched.add(fd);
  return fd;
});
wrap(target, 'open', (orig) => (p: unknown, ...rest: unknown[]) => {
  const cb = rest.pop() as AnyFn;
  return orig(p, ...rest, (err: unknown, fd: number) => {
    if (!err && under(p)) watched.add(fd);
    cb(err, fd);
  });
});
for (const name of ['closeSync', 'close']) {
  wrap(target, name, (orig) => (fd: number, ...rest: unknown[]) => {
    watched.delete(fd);
    return orig(fd, ...rest);
  });
}

// write(fd, buffer, offset?, length?, position?) and write(fd, string, position?, encoding?)
wrap(target, 'writeSync', (orig) => (fd: number, data: unknown, ...rest: unknown[]) => {
  if (!watched.has(fd) || budget === Infinity) return orig(fd, data, ...rest);
  if (typeof data === 'string') {
    // write(fd, string, position?, encoding?): as bytes, so the write can be cut short like any other.
    const bytes = Buffer.from(data, typeof rest[1] === 'string' ? (rest[1] as BufferEncoding) : 'utf8');
    const position = typeof rest[0] === 'number' ? rest[0] : null;
    return orig(fd, bytes, 0, take(bytes.length, 'write'), position);
  }
  const view = data as NodeJS.ArrayBufferView;
  const offset = typeof rest[0] === 'number' ? rest[0] : 0;
  const length = typeof rest[1] === 'number' ? rest[1] : view.byteLength - offset;
  return orig(fd, data, offset, take(length, 'write'), ...rest.slice(2));
});
wrap(target, 'write', (orig) => (fd: number, ...args: unknown[]) => {
  if (watched.has(fd) && full()) {
    const cb = args.pop() as AnyFn;
    process.nextTick(cb, enospc('write'));
    return;
  }
  if (watched.has(fd)) take(byteLength(args[0]), 'write');
  return orig(fd, ...args);
});
// (Truncating frees space: it never fails for want of it.)
for (const name of ['writevSync', 'fdatasyncSync', 'fsyncSync']) {
  wrap(target, name, (orig) => (fd: number, ...rest: unknown[]) => {
    if (watched.has(fd)) {
      if (full()) throw enospc(name.replace(/Sync$/, ''));
      if (name === 'writevSync') take(byteLength(rest[0]), 'writev');
    }
    return orig(fd, ...rest);
  });
}
for (const name of ['writev', 'fdatasync', 'fsync']) {
  wrap(target, name, (orig) => (fd: number, ...args: unknown[]) => {
    if (watched.has(fd) && full()) {
      const cb = args.pop() as AnyFn;
      process.nextTick(cb, enospc(name));
      return;
    }
    return orig(fd, ...args);
  });
}
// By path (or descriptor): writeFile, appendFile, mkdir, rename, copyFile, symlink.
const byPath = (p: unknown): boolean => under(p) || (typeof p === 'number' && watched.has(p));
for (const name of ['writeFileSync', 'appendFileSync']) {
  wrap(target, name, (orig) => (p: unknown, data: unknown, ...rest: unknown[]) => {
    if (byPath(p)) take(Math.max(1, byteLength(data)), name.replace(/Sync$/, ''));
    return orig(p, data, ...rest);
  });
}
for (const name of ['mkdirSync', 'renameSync', 'copyFileSync', 'symlinkSync', 'linkSync']) {
  wrap(target, name, (orig) => (...args: unknown[]) => {
    if (full() && args.slice(0, 2).some(under)) throw enospc(name.replace(/Sync$/, ''));
    return orig(...args);
  });
}
for (const name of ['writeFile', 'appendFile', 'mkdir', 'rename', 'copyFile']) {
  wrap(target, name, (orig) => (...args: unknown[]) => {
    if (args.slice(0, 2).some(byPath)) {
      if (full()) {
        const cb = args.pop() as AnyFn;
        process.nextTick(cb, enospc(name));
        return;
      }
      if (name === 'writeFile' || name === 'appendFile') take(byteLength(args[1]), name);
    }
    return orig(...args);
  });
}
for (const name of ['writeFile', 'appendFile', 'mkdir', 'rename', 'copyFile']) {
  wrap(promises, name, (orig) => async (...args: unknown[]) => {
    if (args.slice(0, 2).some(under)) {
      if (full()) throw enospc(name);
      if (name === 'writeFile' || name === 'appendFile') take(byteLength(args[1]), name);
    }
    return orig(...args);
  });
}
// fs.promises.open: the handle's own methods.
wrap(promises, 'open', (orig) => async (p: unknown, ...rest: unknown[]) => {
  const handle = (await orig(p, ...rest)) as Record<string, AnyFn>;
  if (!under(p)) return handle;
  for (const name of ['write', 'writev', 'writeFile', 'appendFile', 'sync', 'datasync']) {
    wrap(handle, name, (m) => async (...args: unknown[]) => {
      if (full()) throw enospc(name);
      if (name === 'write' && typeof args[0] === 'string' && budget !== Infinity) {
        const bytes = Buffer.from(
          args[0],
          typeof args[2] === 'string' ? (args[2] as BufferEncoding) : 'utf8',
        );
        const position = typeof args[1] === 'number' ? args[1] : null;
        return m(bytes, 0, take(bytes.length, 'write'), position);
      }
      if (name === 'write' && ArrayBuffer.isView(args[0]) && budget !== Infinity) {
        const view = args[0];
        const offset = typeof args[1] === 'number' ? args[1] : 0;
        const length = typeof args[2] === 'number' ? args[2] : view.byteLength - offset;
        return m(view, offset, take(length, 'write'), ...args.slice(3));
      }
      if (name !== 'sync' && name !== 'datasync') take(byteLength(args[0]), name);
      return m(...args);
    });
  }
  return handle;
});

syncBuiltinESMExports();

const faults: FsFaults = {
  arm(bytes) {
    budget = bytes;
    tripped = false;
  },
  disarm() {
    budget = Infinity;
  },
  get tripped() {
    return tripped;
  },
  clearTripped() {
    tripped = false;
  },
};
(globalThis as { __mnemoFsFaults?: FsFaults }).__mnemoFsFaults = faults;
