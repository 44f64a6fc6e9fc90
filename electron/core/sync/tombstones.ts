// "Forget permanently" in a synced space travels as a tombstone: a small file in the repository's
// tombstones/ folder naming the forgotten path (never its content), which every device applies by
// forgetting the file there too (file, journal history, conversation copies, indexes). Tombstones are
// only ever added, so two devices' sets merge by union. This device's own are kept in
// DIR/sync/<space-id>.tombstones/ until they are in the tree.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkMemoryPath } from '../../../memory/index.js';
import { readJson, syncPaths, writePrivate } from './config.js';

export interface Tombstone {
  v: 1;
  path: string;
  at: string;
  device: string;
}

export const tombstonesDir = (dataDir: string, spaceId: string): string =>
  `${syncPaths(dataDir, spaceId).gitdir.slice(0, -'.git'.length)}.tombstones`;

export function tombstoneName(t: Tombstone): string {
  return `${createHash('sha1').update(`${t.path}\0${t.at}\0${t.device}`).digest('hex').slice(0, 24)}.json`;
}

export function tombstoneBytes(t: Tombstone): Buffer {
  return Buffer.from(`${JSON.stringify({ v: 1, path: t.path, at: t.at, device: t.device })}\n`, 'utf8');
}

/** After a forget in a space: if the space syncs, a tombstone for the next sync to carry. */
export function recordTombstone(dataDir: string, spaceId: string, memoryPath: string): void {
  const remote = readJson(syncPaths(dataDir, spaceId).remoteFile) as { device?: string } | undefined;
  if (!remote || typeof remote.device !== 'string') return;
  const t: Tombstone = { v: 1, path: memoryPath, at: new Date().toISOString(), device: remote.device };
  keepTombstone(dataDir, spaceId, tombstoneName(t), tombstoneBytes(t));
}

export const TOMBSTONE_NAME = /^[0-9a-f]{24}\.json$/;

/** Keeps a tombstone on this device, byte for byte (its name is its identity in the tree). */
export function keepTombstone(dataDir: string, spaceId: string, name: string, bytes: Buffer): void {
  const file = path.join(tombstonesDir(dataDir, spaceId), name);
  if (!existsSync(file)) writePrivate(file, bytes.toString('utf8'));
}

/** This device's tombstones: name → bytes. */
export function localTombstones(dataDir: string, spaceId: string): Map<string, Buffer> {
  const dir = tombstonesDir(dataDir, spaceId);
  const out = new Map<string, Buffer>();
  let names: string[];
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (!TOMBSTONE_NAME.test(name)) continue;
    try {
      out.set(name, readFileSync(path.join(dir, name)));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** A tombstone from the remote, checked: a canonical memory path, or null (refused). */
export function parseTombstone(content: Buffer): Tombstone | null {
  try {
    const j = JSON.parse(content.toString('utf8')) as Partial<Tombstone>;
    if (typeof j.path !== 'string' || typeof j.at !== 'string' || typeof j.device !== 'string') return null;
    const p = checkMemoryPath(j.path);
    if (!p.ok || p.path === '/memories') return null;
    return { v: 1, path: p.path, at: j.at.slice(0, 40), device: j.device.slice(0, 60) };
  } catch {
    return null;
  }
}
