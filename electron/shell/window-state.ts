// The window's size and position, remembered between launches and clamped to the screens that exist
// now (a monitor unplugged since must not leave the window off-screen).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MIN_HEIGHT, MIN_WIDTH, type Bounds } from './window-options.js';

const stateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(MIN_WIDTH).max(20_000),
  height: z.number().int().min(MIN_HEIGHT).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof stateSchema>;

export interface WorkArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_STATE: WindowState = { width: 1280, height: 820, maximized: false };

const FILE = 'window-state.json';

export function loadWindowState(dataDir: string): WindowState {
  try {
    const parsed = stateSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dataDir, FILE), 'utf8')));
    return parsed.success ? parsed.data : DEFAULT_STATE;
  } catch {
    return DEFAULT_STATE;
  }
}

export function saveWindowState(dataDir: string, state: WindowState): void {
  const file = path.join(dataDir, FILE);
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * Keeps the remembered bounds if they are mostly visible on some screen; otherwise centres them on the
 * primary screen (screen.getPrimaryDisplay(): the order of getAllDisplays() says nothing about which one
 * the user made primary).
 */
export function fitToScreens(state: WindowState, areas: WorkArea[], primaryArea?: WorkArea): Bounds {
  const width = Math.max(MIN_WIDTH, state.width);
  const height = Math.max(MIN_HEIGHT, state.height);
  if (state.x !== undefined && state.y !== undefined) {
    const { x, y } = state;
    const visible = areas.some((a) => {
      const overlapW = Math.min(x + width, a.x + a.width) - Math.max(x, a.x);
      const overlapH = Math.min(y + height, a.y + a.height) - Math.max(y, a.y);
      return overlapW >= Math.min(200, width) && overlapH >= Math.min(100, height);
    });
    if (visible) return { x, y, width, height };
  }
  const primary = primaryArea ?? areas[0];
  if (!primary) return { width, height };
  const w = Math.min(width, primary.width);
  const h = Math.min(height, primary.height);
  return {
    x: primary.x + Math.round((primary.width - w) / 2),
    y: primary.y + Math.round((primary.height - h) / 2),
    width: w,
    height: h,
  };
}
