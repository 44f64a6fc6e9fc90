// The README is part of the foundation (issue 2, point 6): it names the two commands, the three faces, the
// variables every face reads, where data and the log live, an architecture diagram, and a line for every
// dependency in package.json. This keeps it from drifting as packages and faces are added.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/channels/settings.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The text of one `##`/`###` section, up to the next heading of the same or a higher level. */
function section(title: string): string {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => /^#{2,3} /.test(l) && l.replace(/^#+ /, '') === title);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((l, i) => i > start && new RegExp(`^#{1,${level}} `).test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

describe('README', () => {
  it('shows the two commands and the three faces with their flags', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toMatch(/^npm test\b/m);
    expect(readme).toContain('npm run web -- [--data-dir DIR] [--port N]');
    expect(readme).toContain('npm run chat -- [--data-dir DIR] [--model M] "message"');
    expect(readme).toContain('Final answer:');
    expect(readme).toContain('`mnemo`');
  });

  it('documents the variables, the default model, the data folder and the log', () => {
    for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'MNEMO_DATA_DIR']) {
      expect(section('Configuration'), name).toContain(`\`${name}\``);
    }
    expect(section('Configuration')).toContain(`\`${defaultSettings.model}\``);
    const data = section('Where your data lives');
    expect(data).toContain('~/.config/Mnemo');
    expect(data).toContain('`config.json`');
    expect(data).toMatch(/`logs\/mnemo\.log`[^\n]*(masked|redacted)/);
  });

  it('has an architecture diagram', () => {
    expect(section('Architecture')).toMatch(/```\n[\s\S]*shared\/contract\.ts[\s\S]*```/);
  });

  it('says why each dependency in package.json is there', () => {
    const why = section('Why each dependency is there');
    const named = (dep: string) =>
      why.includes(`\`${dep}\``) || (dep.startsWith('@types/') && why.includes('`@types/*`'));
    const all = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)];
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((dep) => !named(dep))).toEqual([]);
  });
});
