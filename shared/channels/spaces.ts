// Spaces (issue 15): separate memories and conversations in one data folder. These channels manage the
// list; they are the same in every space (see SPACE_FREE_DOMAINS in shared/contract.ts), so a window whose
// space was just deleted can still list, switch and restore. Which space a memory or conversation channel
// works in is named by the call's envelope, never by its payload (shared/contract.ts, "Spaces on the wire").
import { z } from 'zod';
import { settingsSchema } from './settings.js';

/** A space id: 'personal', or 12 hex characters for the others (the backend checks it exists). */
export const spaceId = z.string().regex(/^[a-z0-9]{4,32}$/, 'That is not a space id.');
export const PERSONAL_SPACE_ID = 'personal';

/**
 * The details of the `not_found` a call gets when the space it names does not exist (any more): which
 * space, so a window can tell "my space is gone" from "that file is gone" and leave it.
 */
export interface SpaceGoneDetails {
  spaceGone: string;
}

export function spaceGoneOf(details: unknown): string | undefined {
  const gone = (details as Partial<SpaceGoneDetails> | null | undefined)?.spaceGone;
  return typeof details === 'object' && typeof gone === 'string' ? gone : undefined;
}

/** A colour as #rrggbb. */
export const spaceColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'A colour is written #rrggbb.');

/** A space's own settings; absent = the global setting applies. Model, theme and API key are global only. */
export const spaceSettings = z
  .object({
    memoryWriteMode: settingsSchema.shape.memoryWriteMode,
    backfillBudgetTokens: settingsSchema.shape.backfillBudgetTokens,
  })
  .partial();
export type SpaceSettingsView = z.infer<typeof spaceSettings>;

export const spaceInfo = z.object({
  id: spaceId,
  name: z.string(),
  colour: spaceColour,
  /** ISO time. */
  created: z.string(),
  settings: spaceSettings,
});
export type SpaceInfo = z.infer<typeof spaceInfo>;

/** As listed: with the counts the switcher shows (folder listings, made when the list is asked for). */
export const spaceListed = spaceInfo.extend({
  conversations: z.number().int().min(0),
  memoryFiles: z.number().int().min(0),
});
export type SpaceListed = z.infer<typeof spaceListed>;

/** How long a deleted space stays in the trash ("Recently deleted"), restorable, before it is erased. */
export const TRASH_KEEP_DAYS = 30;

export const trashedSpace = spaceInfo.extend({
  /** ISO time of the deletion; `spaces.restore` with the id brings it back until the trash is emptied. */
  deletedAt: z.string(),
  /** ISO time from which it may be erased (deletedAt + TRASH_KEEP_DAYS; the app looks now and then). */
  keptUntil: z.string(),
});
export type TrashedSpaceInfo = z.infer<typeof trashedSpace>;

const spaceName = z.string().max(200);
const one = z.object({ space: spaceInfo });

export const spacesInvoke = {
  /** Every space, Personal first, with counts. */
  'spaces.list': { req: z.object({}), res: z.object({ spaces: z.array(spaceListed) }) },
  /** A name is unique without regard to case (a clash is `conflict`); the colour defaults to the next one. */
  'spaces.create': { req: z.object({ name: spaceName, colour: spaceColour.optional() }), res: one },
  'spaces.rename': { req: z.object({ id: spaceId, name: spaceName }), res: one },
  'spaces.recolour': { req: z.object({ id: spaceId, colour: spaceColour }), res: one },
  /**
   * A space's own write mode and backfill budget; null clears one (the global setting applies again).
   * `settings.set` called in a space other than Personal changes these too (see settings.ts).
   */
  'spaces.configure': {
    req: z.object({
      id: spaceId,
      patch: z
        .object({
          memoryWriteMode: settingsSchema.shape.memoryWriteMode.nullable(),
          backfillBudgetTokens: settingsSchema.shape.backfillBudgetTokens.nullable(),
        })
        .partial()
        .strict(),
    }),
    res: one,
  },
  /**
   * To the trash (restorable with `spaces.restore` for TRASH_KEEP_DAYS). Refused (`unavailable`) while a reply is
   * being written there; Personal cannot be deleted (`invalid_request`).
   */
  'spaces.delete': {
    req: z.object({ id: spaceId }),
    res: z.object({ trashed: trashedSpace }),
    destructive: true as const,
  },
  /** The spaces in the trash, newest deletion first ("Recently deleted"). */
  'spaces.trashed': { req: z.object({}), res: z.object({ spaces: z.array(trashedSpace) }) },
  /** Back from the trash (a name taken meanwhile is a `conflict`). */
  'spaces.restore': { req: z.object({ id: spaceId }), res: one },
};

export const spacesEvents = {
  /** The list changed (created, renamed, recoloured, configured, deleted, restored). No counts: list for them. */
  'spaces.changed': z.object({ spaces: z.array(spaceInfo) }),
};
