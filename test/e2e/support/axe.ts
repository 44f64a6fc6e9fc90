// axe-core in the page: injected through the DevTools protocol (page.evaluate), so the app's strict
// Content-Security-Policy stays on; returns the serious and critical violations in a readable form, each
// contrast finding with the colours axe measured, so a failure on another machine says what it saw.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
let source: string | null = null;

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Waits until the page has painted what it has: finite animations ended (3 s at most), then two frames. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(`(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    const ended = Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    await Promise.race([ended, new Promise((done) => setTimeout(done, 3000))]);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  })()`);
}

export async function seriousViolations(page: Page, include?: string): Promise<AxeFinding[]> {
  source ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Expressions as strings: this file is compiled without the DOM library (it runs in Node).
  const loaded = await page.evaluate<boolean>('typeof window.axe !== "undefined"');
  if (!loaded) await page.evaluate(source);
  await settled(page);
  const context = include === undefined ? 'document' : JSON.stringify(include);
  const results = await page.evaluate<{
    violations: {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: string[]; any: { data?: unknown }[] }[];
    }[];
  }>(`window.axe.run(${context}, { resultTypes: ['violations'] })`);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ') + measured(n.any)),
    }));
}

/** " (#e6e8eb on #ffffff, 1.2:1)" for a contrast finding, "" for the others. */
function measured(checks: { data?: unknown }[]): string {
  const data = checks.find((c) => typeof c.data === 'object' && c.data !== null && 'fgColor' in c.data)
    ?.data as { fgColor: string; bgColor: string; contrastRatio: number } | undefined;
  return data ? ` (${data.fgColor} on ${data.bgColor}, ${data.contrastRatio}:1)` : '';
}

/**
 * Fails with every serious or critical violation unless the page reaches a state without any within a few
 * seconds: what is judged is the screen the user rests on, not a frame in the middle of a re-render.
 */
export async function expectNoSeriousViolations(page: Page, label: string, include?: string): Promise<void> {
  let found: AxeFinding[] = [];
  const count = async (): Promise<number> => {
    found = await seriousViolations(page, include);
    return found.length;
  };
  try {
    await expect.poll(count, { timeout: 5_000, interval: 250 }).toBe(0);
  } catch {
    expect(found, `${label}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
  }
}
