// The last line of defence against host paths in messages that cross the contract. Handlers are meant to
// build their messages without host paths; this catches what slips through (e.g. a raw `ENOENT: ... open
// '/home/alice/.config/Mnemo/x.json'` wrapped by mistake). Memory paths (`/memories/...`) are the model's
// and the user's own view and are kept, as are URLs.
const PLACEHOLDER = '<path>';

// A quoted absolute path (spaces allowed inside the quotes): POSIX, Windows drive, UNC or ~/.
const QUOTED = /(['"`])((?:file:\/\/)?(?:\/(?!memories(?:[/'"`]|$))|[A-Za-z]:[\\/]|\\\\|~[\\/])[^'"`\n]*)\1/g;
// file:// URLs (they name host files, unlike http(s) URLs).
const FILE_URL = /\bfile:\/\/[^\s'"`<>]*/gi;
// An unquoted POSIX path of at least two segments, not inside a URL or a relative path, not /memories.
const POSIX = /(?<![\w:/.\\~%-])\/(?!memories(?:[/\s'"`,;:)\]}>]|$))[^\s/'"`<>|]+(?:\/[^\s/'"`<>|]*)+/g;
// A Windows drive path (C:\... or C:/...) or a UNC path (\\server\share\...).
const WINDOWS = /(?<![\w])[A-Za-z]:[\\/][^\s'"`<>|]*|\\\\[^\s\\'"`<>|]+\\[^\s'"`<>|]*/g;
// A home-relative path: ~/... or ~\...
const HOME = /(?<![\w/\\])~[\\/][^\s'"`<>|]*/g;

/** Replaces absolute host paths in a message with `<path>`. Idempotent. */
export function scrubHostPaths(message: string): string {
  return message
    .replace(QUOTED, (_m, quote: string) => `${quote}${PLACEHOLDER}${quote}`)
    .replace(FILE_URL, keepTrailingPunctuation)
    .replace(WINDOWS, keepTrailingPunctuation)
    .replace(HOME, keepTrailingPunctuation)
    .replace(POSIX, keepTrailingPunctuation);
}

/** "(see /a/b)." → "(see <path>).": closing punctuation after an unquoted path belongs to the sentence. */
function keepTrailingPunctuation(match: string): string {
  const trailing = /[.,;:)\]}]+$/.exec(match)?.[0] ?? '';
  return PLACEHOLDER + trailing;
}

/** Drops a stack trace someone appended to a message ("\n    at fn (file:line)"). */
export function stripStack(message: string): string {
  const at = message.search(/\n\s+at\s/);
  return at === -1 ? message : message.slice(0, at);
}
