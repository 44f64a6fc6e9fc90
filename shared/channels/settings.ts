// Settings: an allow-list of keys with ranges. The renderer never sees the API key, only whether one is
// set and where it comes from; the base URL is not renderer-settable (security.md).
import { z } from 'zod';
import { defaultLimits } from '../../memory/types.js';
import { ok } from './common.js';

export const settingsSchema = z.object({
  model: z.string().min(1).max(200),
  theme: z.enum(['system', 'light', 'dark']),
  memoryWriteMode: z.enum(['automatic', 'ask', 'read-only']),
  contextStrategy: z.enum(['native', 'local', 'off']),
  /** Tool-result clearing (native clear_tool_uses_20250919 / local placeholder). */
  clearTrigger: z.number().int().min(1_000).max(2_000_000),
  clearKeep: z.number().int().min(0).max(100),
  clearAtLeast: z.number().int().min(0).max(2_000_000),
  /** Tools whose results native clearing keeps, besides `memory` (always kept: it holds the backfill). */
  clearExcludeTools: z.array(z.enum(['memory_search'])).max(1),
  /** Compaction trigger; the API's minimum for native compaction is 50,000. */
  compactTrigger: z.number().int().min(1_000).max(2_000_000),
  maxTurns: z.number().int().min(1).max(200),
  backfillBudgetTokens: z.number().int().min(0).max(100_000),
  memoryFileCapBytes: z.number().int().min(1_024).max(10_000_000),
  memoryQuotaBytes: z.number().int().min(10_240).max(1_000_000_000),
  staleAfterDays: z.number().int().min(1).max(3650),
  stallTimeoutMs: z.number().int().min(1_000).max(600_000),
});
export type Settings = z.infer<typeof settingsSchema>;

export const defaultSettings: Settings = {
  model: 'claude-sonnet-5-5',
  theme: 'system',
  memoryWriteMode: 'automatic',
  contextStrategy: 'native',
  clearTrigger: 100_000,
  clearKeep: 3,
  clearAtLeast: 0,
  clearExcludeTools: [],
  compactTrigger: 150_000,
  maxTurns: 25,
  backfillBudgetTokens: 4_000,
  // Written once, in memory/types.ts.
  memoryFileCapBytes: defaultLimits.fileCapBytes,
  memoryQuotaBytes: defaultLimits.quotaBytes,
  staleAfterDays: defaultLimits.staleAfterDays,
  stallTimeoutMs: 60_000,
};

export const apiKeyStatus = z.object({
  hasApiKey: z.boolean(),
  /** env: ANTHROPIC_API_KEY (wins over a stored key); stored: saved by the app. */
  source: z.enum(['env', 'stored', 'none']),
  /** A key stored by the app is (or, with none stored yet, would be) kept unencrypted: no OS keychain. */
  insecureStorage: z.boolean(),
  /** No key in use because the stored one cannot be read here: what to tell the user (first-run screen). */
  problem: z.string().max(500).optional(),
});

export const settingsView = z.object({ settings: settingsSchema, apiKey: apiKeyStatus });
export type SettingsView = z.infer<typeof settingsView>;

export const settingsInvoke = {
  'settings.get': { req: z.object({}), res: settingsView },
  'settings.set': { req: z.object({ patch: settingsSchema.partial().strict() }), res: settingsView },
  /** Store (or with null, remove) the API key. The key travels renderer → main only, never back. */
  'settings.setApiKey': {
    req: z.object({ apiKey: z.string().trim().min(1).max(500).nullable() }),
    res: settingsView,
  },
  'settings.reset': { req: z.object({}), res: settingsView, destructive: true as const },
};

export const settingsEvents = {
  'settings.changed': settingsView,
};

export { ok };
export type ApiKeyStatus = z.infer<typeof apiKeyStatus>;
