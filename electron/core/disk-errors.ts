// A full or read-only disk is not a bug in Mnemo: the person can act on it, so they are told what happened
// and what to do, in words, instead of the generic "something went wrong" (or an errno code).
const CONDITIONS: Record<string, string> = {
  ENOSPC: 'The disk is full',
  EDQUOT: 'The disk quota is used up',
  EROFS: 'The data folder is on a read-only disk',
};

/** The disk condition behind `error`, looking through its cause chain. */
export function diskCondition(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth += 1) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && Object.hasOwn(CONDITIONS, code)) return code;
    e = cause;
  }
  return undefined;
}

/** "The disk is full: the conversation could not be saved. Free some space …", or undefined. */
export function diskMessage(error: unknown, what = 'the change'): string | undefined {
  const code = diskCondition(error);
  if (!code) return undefined;
  const fix = code === 'EROFS' ? 'Make the folder writable' : 'Free some space';
  return `${CONDITIONS[code]}: ${what} could not be saved. ${fix} and try again; what was saved before is kept.`;
}
