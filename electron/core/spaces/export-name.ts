// The file name of a space's memory export: mnemo-memory-<space>-<date>.zip. Personal, while it keeps
// its name, keeps today's mnemo-memory-<date>.zip, so existing backups and scripts go on matching.
import type { SpaceScope } from '../context.js';
import { nameKey, PERSONAL_ID, PERSONAL_NAME } from './model.js';

const PREFIX = 'mnemo-memory-';

export function spaceExportName(fileName: string, space: SpaceScope | undefined): string {
  if (!space || !fileName.startsWith(PREFIX)) return fileName;
  const name = space.name();
  if (space.id === PERSONAL_ID && nameKey(name) === nameKey(PERSONAL_NAME)) return fileName;
  return `${PREFIX}${slug(name) || space.id}-${fileName.slice(PREFIX.length)}`;
}

/** ASCII letters and digits of the name, accents dropped, other runs made one "-" (safe in any folder). */
export function slug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}
