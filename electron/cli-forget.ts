// The terminal's forget commands: `--forget PATH [--space NAME] [--yes]` takes a memory file out of memory
// as the panel's Forget does (journaled, undoable from its history); `--forget-permanently PATH` erases it
// as the panel's "Forget permanently" does (every version, every copy, and on every device the space syncs
// with). Both run the space's own channels, so the terminal forgets exactly what the window would. Exit
// codes: 0 done (or declined on a terminal), 1 an unknown path or a forget that failed, 2 bad usage or no
// confirmation.
import { checkMemoryPath } from '../memory/index.js';
import { ContractError } from '../shared/errors.js';
import { confirmOnTerminal } from './cli-confirm.js';
import type { ForgetCommand } from './cli-forget-args.js';
import type { Core } from './core/create-core.js';
import { PERSONAL_ID } from './core/spaces/index.js';

type Print = (line: string) => void;

export async function runForgetCommand(
  core: Core,
  command: ForgetCommand,
  out: Print,
  err: Print,
): Promise<number> {
  const checked = checkMemoryPath(command.path);
  if (!checked.ok) {
    err(`${command.path}: ${checked.message}`);
    return 2;
  }
  const target = checked.path;
  const found = command.space === undefined ? undefined : await core.spaces.find(command.space);
  if (command.space !== undefined && !found) {
    err(`There is no space named ${command.space.trim()}; --spaces lists them.`);
    return 2;
  }
  const space = await core.spaces.open(found?.id ?? PERSONAL_ID);
  const label = found?.name ?? 'Personal';
  const entry = (await space.ctx.memory.list()).find((e) => e.path === target);
  if (!entry || target === '/memories') {
    err(`There is no memory file ${target} in ${label}: nothing was forgotten.`);
    return 1;
  }
  const action = command.permanently ? 'memory.forget' : 'memory.delete';
  const asked = await confirmOnTerminal(action, { path: target }, { yes: command.yes, out, err });
  if (asked === 'no-terminal') return 2;
  if (asked === 'declined') return 0;
  const call = { clientId: 'cli' };
  try {
    if (command.permanently) await space.handlers['memory.forget']({ path: target }, call);
    else await space.handlers['memory.delete']({ path: target }, call);
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    err(`${target} was not forgotten: ${error.message}`);
    return 1;
  }
  out(
    command.permanently
      ? `Forgot ${target} permanently: it is erased here${core.sync.hasRemote(space.id) ? ', and on the other devices at their next sync' : ''}.`
      : `Forgot ${target}: it is out of memory (restorable from its history).`,
  );
  return 0;
}
