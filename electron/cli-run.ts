// `npm run chat -- [--data-dir DIR] [--model M] [--context native|local|off] [--compact-at TOKENS]
// [--keep-tool-results N] [--max-turns N] [--no-memory] [--continue] [--space NAME] "message"`, and the
// space commands of cli-spaces.ts (--spaces, --rename-space, --delete-space) and the sync commands of
// cli-sync.ts (--sync-remote, --sync): the headless face. It parses its flags (cli-args.ts) and only then
// loads the backend (cli-commands.ts), which prints the loop as it happens, then `Final answer:` and the
// text. Exit codes: 0 done, 1 the run failed, 2 bad usage, 3 no API key, 130 interrupted.
import { parseCliArgs, USAGE, UsageError } from './cli-args.js';
import { err, out } from './cli-output.js';

async function main(): Promise<number> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'help') {
    out(USAGE);
    return 0;
  }
  // The backend, its dependencies and the API client: loaded only for a command that uses them.
  const { runCommand } = await import('./cli-commands.js');
  return runCommand(args);
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    err(`Mnemo failed: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  });
