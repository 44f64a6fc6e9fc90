// The flags of the terminal's forget commands (cli-forget.ts runs them): parsed before anything of the
// backend is loaded, so `--help` and a usage error cost no more than reading this.

export const forgetOptions = {
  forget: { type: 'string' },
  'forget-permanently': { type: 'string' },
} as const;

export const FORGET_USAGE = `  --forget PATH             take a memory file out of memory, as the panel's Forget does (undoable from
                            its history); PATH as the memory tool names it, e.g. /memories/pets.md
  --forget-permanently PATH erase a memory file for good: every version, every copy in conversations,
                            here and, with sync, on every device (asks first; --yes on a script)`;

export interface ForgetCommand {
  kind: 'forget';
  path: string;
  permanently: boolean;
  space: string | undefined;
  yes: boolean;
}

interface ForgetValues {
  forget?: string | undefined;
  'forget-permanently'?: string | undefined;
  space?: string | undefined;
  yes?: boolean | undefined;
}

/** The forget command of the flags, if any; `usage` makes the CLI's usage error (exit 2). */
export function forgetCommandOf(
  v: ForgetValues,
  positionals: string[],
  usage: (message: string) => Error,
): ForgetCommand | undefined {
  const soft = v.forget;
  const hard = v['forget-permanently'];
  if (soft === undefined && hard === undefined) return undefined;
  if (soft !== undefined && hard !== undefined) throw usage('Choose one: --forget or --forget-permanently.');
  const flag = soft !== undefined ? '--forget' : '--forget-permanently';
  const p = (soft ?? hard)!.trim();
  if (!p) throw usage(`${flag} needs the memory file, e.g. ${flag} /memories/pets.md.`);
  if (positionals.length > 0) throw usage(`${flag} takes no message.`);
  return { kind: 'forget', path: p, permanently: hard !== undefined, space: v.space, yes: v.yes === true };
}
