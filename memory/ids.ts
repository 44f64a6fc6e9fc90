// Random names: journal record ids, batch ids, temp and trash file names. 48 random bits each, in hex.
import { randomUUID } from 'node:crypto';

/**
 * 12 random hex digits. From randomUUID, which draws on a buffer of random bytes it refills in batches:
 * randomBytes(6) asks the generator for every id, a few microseconds per change (bench/memory). A v4
 * UUID's first 12 hex digits are all random (its fixed version digit comes after them).
 */
export function randomId(): string {
  const uuid = randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13);
}
