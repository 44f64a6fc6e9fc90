// The terminal's half of shared/confirmations.ts: a destructive command asks y/N with the words of its
// table entry (`terminal`), or, with no terminal to ask on, says it needs --yes. The table decides and
// words what is confirmed for every face; this only asks.
import { createInterface } from 'node:readline/promises';
import { TABLE, type DestructiveAction, type Targets } from '../shared/confirmations.js';

type Print = (line: string) => void;

/** 'go' to run the action; 'declined' (exit 0, nothing happened) or 'no-terminal' (exit 2) otherwise. */
export async function confirmOnTerminal<A extends DestructiveAction>(
  action: A,
  target: Targets[A],
  options: { yes: boolean; out: Print; err: Print },
): Promise<'go' | 'declined' | 'no-terminal'> {
  if (options.yes) return 'go';
  const words = TABLE[action].terminal;
  if (!words) throw new Error(`${action} has no terminal confirmation in shared/confirmations.ts`);
  const ask = words(target);
  if (!process.stdin.isTTY) {
    options.err(ask.noTerminal);
    return 'no-terminal';
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(`${ask.question} [y/N] `);
  rl.close();
  if (['y', 'yes'].includes(answer.trim().toLowerCase())) return 'go';
  options.out(ask.declined);
  return 'declined';
}
