// Every hostile input is refused with its message, leaks no host path, and changes nothing outside the root.
import * as os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryError } from '../../../memory/index.js';
import { hostileCases, type Category } from './hostile-cases.js';
import { agent, sandbox, snapshotOutside, type Sandbox } from './helpers.js';

let s: Sandbox | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

describe('hostile inputs', () => {
  it('has at least 60 cases and at least 5 per category', () => {
    expect(hostileCases.length).toBeGreaterThanOrEqual(60);
    const counts = new Map<Category, number>();
    for (const c of hostileCases) counts.set(c.category, (counts.get(c.category) ?? 0) + 1);
    for (const cat of ['paths', 'links', 'content', 'edits', 'consistency', 'errors'] as const)
      expect(counts.get(cat) ?? 0, cat).toBeGreaterThanOrEqual(5);
  });

  it.each(hostileCases.map((c) => [`${c.category}: ${c.name}`, c] as const))('%s', async (_name, c) => {
    s = await sandbox(c.limits ? { limits: c.limits } : {});
    await c.setup?.(s);
    const before = await snapshotOutside(s.base);
    let message: string;
    if (c.tool !== undefined) {
      const result = await s.memory.tool.execute(c.tool, agent);
      expect(result.isError).toBe(true);
      message = result.content;
    } else {
      const err = await c.api!(s.memory, s).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(MemoryError);
      expect((err as MemoryError).code).toBe(c.code);
      message = (err as MemoryError).message;
    }
    expect(message).toMatch(c.message);
    if (c.category === 'content' && c.name.startsWith('secret:')) {
      // the refusal never echoes the credential
      const text = (c.tool as { file_text: string }).file_text;
      const value = text.slice(text.indexOf('mine: ') + 6).trim();
      expect(message).not.toContain(value.slice(0, 12));
    }
    expect(message).not.toContain(s.base);
    expect(message).not.toContain(os.tmpdir() + '/');
    expect(message).not.toMatch(/\n\s+at /); // no stack
    expect(await snapshotOutside(s.base)).toEqual(before);
  });
});
