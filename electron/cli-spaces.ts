// The terminal's space commands (issue 15): `--space NAME` picks (or on first use creates) the space a chat
// runs in; `--spaces`, `--rename-space OLD NEW` and `--delete-space NAME [--yes]` change the list. Exit
// codes as for a chat: 0 done, 2 bad usage (an unknown space, a taken name, no confirmation).
import { ContractError } from '../shared/errors.js';
import { confirmOnTerminal } from './cli-confirm.js';
import type { Core } from './core/create-core.js';
import { TRASH_KEEP_MS, type OpenSpace } from './core/spaces/index.js';
import type { SpaceCommand } from './cli-spaces-args.js';

type Print = (line: string) => void;

/** Runs a space command; returns the exit code. */
export async function runSpaceCommand(
  core: Core,
  command: SpaceCommand,
  out: Print,
  err: Print,
): Promise<number> {
  try {
    if (command.kind === 'list') {
      for (const s of await core.spaces.listWithCounts()) {
        out(`${s.name}  ${plural(s.conversations, 'conversation')}, ${plural(s.memoryFiles, 'memory file')}`);
      }
      return 0;
    }
    if (command.kind === 'rename') {
      const space = await named(core, command.from);
      const renamed = await core.spaces.rename(space.id, command.to);
      out(`Renamed space ${space.name} to ${renamed.name}`);
      return 0;
    }
    const space = await named(core, command.name);
    // The counts only matter when it asks.
    const counts = command.yes
      ? undefined
      : (await core.spaces.listWithCounts()).find((s) => s.id === space.id);
    const asked = await confirmOnTerminal(
      'spaces.delete',
      {
        name: space.name,
        counts: `${plural(counts?.conversations ?? 0, 'conversation')}, ${plural(counts?.memoryFiles ?? 0, 'memory file')}`,
      },
      { yes: command.yes, out, err },
    );
    if (asked === 'no-terminal') return 2;
    if (asked === 'declined') return 0;
    await core.spaces.delete(space.id);
    out(`Deleted space ${space.name} (restorable from the trash for ${TRASH_DAYS} days)`);
    return 0;
  } catch (error) {
    if (error instanceof ContractError && ['invalid_request', 'conflict', 'not_found'].includes(error.code)) {
      err(error.message);
      return 2;
    }
    throw error;
  }
}

/**
 * The space a chat runs in: Personal without --space, else the one named, created on first use. A name
 * that cannot be a space's is bad usage: the message is printed and the result is null (exit 2).
 */
export async function chatSpace(
  core: Core,
  name: string | undefined,
  out: Print,
  err: Print,
): Promise<OpenSpace | null> {
  if (name === undefined) return core.spaces.open('personal');
  let found;
  try {
    found = await core.spaces.ensure(name);
  } catch (error) {
    if (!(error instanceof ContractError && error.code === 'invalid_request')) throw error;
    err(`--space: ${error.message}`);
    return null;
  }
  if (found.created) out(`Created space ${found.space.name}`);
  return core.spaces.open(found.space.id);
}

const TRASH_DAYS = Math.round(TRASH_KEEP_MS / 86_400_000);

async function named(core: Core, name: string) {
  const space = await core.spaces.find(name);
  if (!space)
    throw new ContractError('not_found', `There is no space named ${name.trim()}; --spaces lists them.`);
  return space;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
