// axe-core in the page: injected through the DevTools protocol (page.evaluate), so the app's strict
// Content-Security-Policy stays on; returns the serious and critical violations in a readable form.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: string | null = null;

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

export async function seriousViolations(page: Page, include?: string): Promise<AxeFinding[]> {
  source ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Expressions as strings: this file is compiled without the DOM library (it runs in Node).
  const loaded = await page.evaluate<boolean>('typeof window.axe !== "undefined"');
  if (!loaded) await page.evaluate(source);
  const context = include === undefined ? 'document' : JSON.stringify(include);
  const results = await page.evaluate<{
    violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
  }>(`window.axe.run(${context}, { resultTypes: ['violations'] })`);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
}
