// The first thing every plain-Node face runs (cli.ts, web-main.ts, launch.ts): an older Node gets one line
// naming the version it needs and a failing exit code, rather than a syntax error or a missing API deep in
// a dependency, with a stack trace. So this file, and the entries that import it, use no syntax or API
// newer than Node 18, and load nothing else: the rest of a face is imported only once the check passed.

/** The oldest Node.js major version Mnemo runs on (package.json's engines.node says the same). */
export const NODE_MAJOR = 24;

/**
 * True when this Node is new enough. Otherwise writes the one line to stderr, sets a failing exit code
 * and returns false, so the entry loads nothing more and the process ends by itself.
 */
export function nodeIsSupported(version: string = process.versions.node): boolean {
  const major = Number(version.split('.')[0]);
  if (major >= NODE_MAJOR) return true;
  process.stderr.write(`Mnemo needs Node.js ${NODE_MAJOR} or later; this is Node.js ${version}.\n`);
  process.exitCode = 1;
  return false;
}
