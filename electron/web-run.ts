// `npm run web -- [--data-dir DIR] [--port N]`: browser mode. Prints `Mnemo is ready: http://127.0.0.1:
// PORT/?token=...` once the server listens; bad flags get the usage and exit code 2.
import { exitOnStartFailure, serveBrowserMode } from './browser-mode.js';
import { parseWebArgs, WEB_USAGE as USAGE, type WebArgs } from './web-args.js';

async function main(): Promise<void> {
  let args: WebArgs | 'help';
  try {
    args = parseWebArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  await serveBrowserMode(args, print);
}

main().catch(exitOnStartFailure);
