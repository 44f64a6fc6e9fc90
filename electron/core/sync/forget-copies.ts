// What sync keeps of a space beside it, erased by "Forget permanently" like every other copy: the open
// conflicts about the file (the other device's version waits there), the backups made before a rewritten
// remote was taken or overwritten (DIR/sync/<id>.backups/), and the versions in the space's git folder
// (purge.ts). A tombstone applied on another device erases the same, because it goes through the same
// forget.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../../../memory/index.js';
import { redactConversationBytes, redactConversationFile } from '../conversations/redact-files.js';
import type { Redactor } from '../conversations/redact.js';
import { syncPaths, writePrivate } from './config.js';
import { listConflicts } from './conflicts.js';
import { purgeForgotten } from './purge.js';

export async function eraseSyncCopies(
  dataDir: string,
  spaceId: string,
  forgotten: readonly string[],
  redactor: Redactor,
): Promise<void> {
  const paths = syncPaths(dataDir, spaceId);
  const within = (p: string): boolean => forgotten.some((f) => isWithin(p, f));

  const conflicts = listConflicts(paths);
  const kept = conflicts.filter((c) => !within(c.path));
  if (kept.length !== conflicts.length) {
    for (const c of conflicts.filter((x) => within(x.path)))
      for (const ext of ['theirs', 'draft'])
        rmSync(path.join(paths.conflictsDir, `${c.id}.${ext}`), { force: true });
    writePrivate(paths.conflictsFile, JSON.stringify(kept));
  }

  for (const stamp of listing(paths.backupsDir)) {
    const backup = path.join(paths.backupsDir, stamp);
    for (const p of forgotten)
      rmSync(path.join(backup, 'memories', ...p.split('/').slice(2)), { recursive: true, force: true });
    const conversations = path.join(backup, 'conversations');
    for (const name of listing(conversations))
      if (name.endsWith('.jsonl')) redactConversationFile(path.join(conversations, name), redactor);
  }

  await purgeForgotten(paths, spaceId, {
    paths: forgotten,
    redactConversation: (content) => redactConversationBytes(content, redactor),
  });
}

function listing(dir: string): string[] {
  if (!existsSync(dir)) return [];
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
