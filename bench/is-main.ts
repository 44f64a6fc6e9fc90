// Is this module the script node was started with (`node dist/bench/<name>/index.js` prints its table on
// its own)? Compared as URLs made the way Node makes import.meta.url: a hand-built `file://${argv[1]}`
// differs from it as soon as the path has a space or a non-ASCII character (Node escapes them).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export function isMain(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  return argv1 !== undefined && moduleUrl === pathToFileURL(path.resolve(argv1)).href;
}
