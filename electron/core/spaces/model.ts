// What a space is, as stored in its space.json, and the rules for its name, colour and id. Plain data:
// the registry (registry.ts) owns the files, this module only says what is valid.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { settingsSchema } from '../../../shared/channels/settings.js';
import { ContractError } from '../../../shared/errors.js';

/** The default space: today's layout at the top of the data folder, so no existing data moves. */
export const PERSONAL_ID = 'personal';
export const PERSONAL_NAME = 'Personal';
export const SPACES_FOLDER = 'spaces';
export const SPACE_FILE = 'space.json';
/** The three folders every space has (Personal's are the data folder's own). */
export const SPACE_FOLDERS = ['memories', 'memory-journal', 'conversations'] as const;

/** Colours offered in turn to new spaces; any #rrggbb is accepted. */
export const PALETTE = [
  '#6b7280',
  '#2563eb',
  '#16a34a',
  '#d97706',
  '#dc2626',
  '#7c3aed',
  '#0891b2',
  '#db2777',
];
export const PERSONAL_COLOUR = PALETTE[0]!;

/** Per-space settings: absent = the global setting applies. Model, theme and API key are global only. */
export const spaceSettingsSchema = z
  .object({
    memoryWriteMode: settingsSchema.shape.memoryWriteMode,
    backfillBudgetTokens: settingsSchema.shape.backfillBudgetTokens,
    /** Recall (issue 17): the model's conversation_search tools. Absent = on; space-only. */
    recall: z.boolean(),
  })
  .partial()
  .strict();
export type SpaceSettings = z.infer<typeof spaceSettingsSchema>;
export const SPACE_SETTING_KEYS = ['memoryWriteMode', 'backfillBudgetTokens', 'recall'] as const;

const ID = /^[a-z0-9]{4,32}$/;
export const spaceFileSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(ID),
  name: z.string().min(1).max(200),
  colour: z.string().regex(/^#[0-9a-f]{6}$/i),
  created: z.string().min(1).max(40),
  settings: spaceSettingsSchema.optional(),
});
export type SpaceFile = z.infer<typeof spaceFileSchema>;

export interface Space {
  id: string;
  name: string;
  colour: string;
  /** ISO time. */
  created: string;
  settings: SpaceSettings;
}

export interface SpaceCounts {
  conversations: number;
  memoryFiles: number;
}

export function isSpaceId(id: string): boolean {
  return ID.test(id);
}

export function newSpaceId(): string {
  // 12 hex characters: never 'personal', never starting with '.', safe on every file system.
  return randomBytes(6).toString('hex');
}

/** The folder a space keeps its memory, journal and conversations in. */
export function spaceDir(dataDir: string, id: string): string {
  if (id === PERSONAL_ID) return dataDir;
  if (!isSpaceId(id)) throw new ContractError('not_found', 'That space does not exist.');
  return path.join(dataDir, SPACES_FOLDER, id);
}

const MAX_NAME = 60;
// Control characters, and invisible or direction-changing ones that make two names look alike.
const BAD_NAME =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/u;

/** A name as stored: NFC, trimmed, inner runs of white space made one space. Throws a clear message. */
export function cleanName(raw: string): string {
  const name = raw.normalize('NFC').trim().replace(/\s+/gu, ' ');
  if (name.length === 0) throw new ContractError('invalid_request', 'A space needs a name.');
  if ([...name].length > MAX_NAME) {
    throw new ContractError('invalid_request', `A space name has at most ${MAX_NAME} characters.`);
  }
  if (BAD_NAME.test(name)) {
    throw new ContractError(
      'invalid_request',
      'A space name cannot hold control characters or invisible characters.',
    );
  }
  return name;
}

/** The key two names are compared by: NFC, case folded (upper then lower folds ß and ſ too). */
export function nameKey(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/gu, ' ').toUpperCase().toLowerCase().normalize('NFC');
}

export function cleanColour(raw: string): string {
  const colour = raw.trim().toLowerCase();
  if (!/^#[0-9a-f]{6}$/.test(colour)) {
    throw new ContractError('invalid_request', 'A space colour is written #rrggbb, for example #2563eb.');
  }
  return colour;
}

export function toSpace(file: SpaceFile): Space {
  return {
    id: file.id,
    name: file.name,
    colour: file.colour,
    created: file.created,
    settings: file.settings ?? {},
  };
}

export function toFile(space: Space): SpaceFile {
  const file: SpaceFile = {
    v: 1,
    id: space.id,
    name: space.name,
    colour: space.colour,
    created: space.created,
  };
  if (Object.keys(space.settings).length > 0) file.settings = space.settings;
  return file;
}
