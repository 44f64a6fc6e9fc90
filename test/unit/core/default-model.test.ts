// The default model must be a current one from the SDK's own model list (issue 2): the `Model` union in
// the installed @anthropic-ai/sdk's type declarations, read from disk so an SDK upgrade that drops it, or
// a default that was never in it, fails here rather than at a user's first request.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/channels/settings.js';

function sdkModels(): string[] {
  const js = createRequire(import.meta.url).resolve('@anthropic-ai/sdk/resources/messages/messages');
  const dts = readFileSync(js.replace(/\.js$/, '.d.ts'), 'utf8');
  const union = /^export type Model = (.+);$/m.exec(dts)?.[1];
  if (union === undefined) throw new Error('the SDK no longer declares `export type Model` in messages.d.ts');
  return [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

describe('default model', () => {
  it("is one of the SDK's named models, and not a dated snapshot", () => {
    const models = sdkModels();
    expect(models.length).toBeGreaterThan(5);
    expect(models).toContain(defaultSettings.model);
    // An alias follows the current snapshot; a dated id (…-20250929) would pin an old one.
    expect(defaultSettings.model).not.toMatch(/-\d{8}$/);
  });
});
