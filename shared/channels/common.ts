// Small schemas reused by several channel tables.
import { z } from 'zod';

export const id = z.string().min(1).max(128);
export const empty = z.object({}).strict();
export const ok = z.object({ ok: z.literal(true) });
/** A memory path as the model and the user see it: `/memories/...`. Validated again by memory/. */
export const memoryPath = z.string().min(1).max(1024);
/** Content hash (sha256 hex) a user edit started from. */
export const version = z.string().regex(/^[0-9a-f]{64}$/);
export const isoTime = z.string();
