// Counts disk syncs as the benchmark runs: fsync/fdatasync calls (callback, promise and FileHandle forms)
// and writes to a descriptor opened with O_DSYNC or O_SYNC (each is durable when it returns, so it is a
// sync too). Wraps node:fs itself, so it sees ours, the SDK's reference and the floor alike.
import fs, { constants } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const SYNC_FLAGS = ((constants as { O_DSYNC?: number }).O_DSYNC ?? 0) | (constants.O_SYNC ?? 0);
let count = 0;
let installed = false;

export function syncs(): number {
  return count;
}

export async function installSyncCounter(): Promise<void> {
  if (installed) return;
  installed = true;
  for (const name of ['fsync', 'fdatasync', 'fsyncSync', 'fdatasyncSync'] as const) {
    const original = fs[name] as (...a: unknown[]) => unknown;
    (fs as unknown as Record<string, unknown>)[name] = function (this: unknown, ...a: unknown[]) {
      count++;
      return original.apply(this, a);
    };
  }
  syncBuiltinESMExports();
  const probe = await fs.promises.open('.', 'r');
  const proto = Object.getPrototypeOf(probe) as Record<string, (...a: unknown[]) => Promise<unknown>>;
  await probe.close();
  for (const name of ['sync', 'datasync']) {
    const original = proto[name]!;
    proto[name] = function (this: unknown, ...a: unknown[]) {
      count++;
      return original.apply(this, a);
    };
  }
  const durable = new WeakSet<object>();
  const open = fs.promises.open;
  fs.promises.open = async function (this: unknown, ...a: Parameters<typeof open>) {
    const handle = await open.apply(this, a);
    if (typeof a[1] === 'number' && (a[1] & SYNC_FLAGS) !== 0) durable.add(handle);
    return handle;
  } as typeof open;
  const write = proto.write!;
  proto.write = function (this: object, ...a: unknown[]) {
    if (durable.has(this)) count++;
    return write.apply(this, a);
  };
}
