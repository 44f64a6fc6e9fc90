// Shared pieces of the hostile-input table (hostile-cases.ts, hostile-cases-more.ts). Each case may plant
// something first (as a user or attacker with access to the folder would), then makes one call that must be
// refused with a clear message.
import * as path from 'node:path';
import type { Memory, MemoryLimits } from '../../../memory/index.js';
import type { Sandbox } from './helpers.js';

export type Category = 'paths' | 'links' | 'content' | 'edits' | 'consistency' | 'errors';

export interface HostileCase {
  category: Category;
  name: string;
  setup?: (s: Sandbox) => Promise<void>;
  /** A raw tool input, or a call on the user API that must reject. */
  tool?: unknown;
  api?: (m: Memory, s: Sandbox) => Promise<unknown>;
  /** The refusal message must match. */
  message: RegExp;
  /** For API calls: the MemoryError code. */
  code?: string;
  limits?: Partial<MemoryLimits>;
}

export const inCategory = (category: Category, cases: Omit<HostileCase, 'category'>[]): HostileCase[] =>
  cases.map((c) => ({ ...c, category }));

export const mem = (s: Sandbox, ...p: string[]) => path.join(s.dataDir, 'memories', ...p);
export const seed = (rel: string, text: string) => async (s: Sandbox) => {
  await s.memory.create(rel, text);
};

export const view = (p: unknown) => ({ command: 'view', path: p });
export const create = (p: unknown, t = 'x') => ({ command: 'create', path: p, file_text: t });
