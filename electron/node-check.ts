// How every plain-Node face starts (cli.ts, web-main.ts, launch.ts): an older Node gets one line naming the
// version it needs and a failing exit code, rather than a syntax error or a missing API deep in a
// dependency, with a stack trace. So this file, and the entries that import it, use no syntax or API newer
// than Node 18, and load nothing of the app until the check passed.
import nodeModule from 'node:module';

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

/**
 * Checks the Node version, then loads the face (`load` imports its bundled rest). Node's compile cache is
 * turned on first: compiling the bundle was most of a start's time, and the cache (in the system's temp
 * folder unless NODE_COMPILE_CACHE says otherwise) lets later starts skip it. A face whose files cannot be
 * loaded says so in one line: the loader's own error names absolute paths and comes with a stack trace.
 */
export async function startFace(load: () => Promise<unknown>): Promise<void> {
  if (!nodeIsSupported()) return;
  nodeModule.enableCompileCache?.();
  try {
    await load();
  } catch {
    process.stderr.write(
      'Mnemo could not load its own files (a part is missing or damaged). In a clone, run `npm install` ' +
        'again; reinstall an installed app.\n',
    );
    process.exitCode = 1;
  }
}
