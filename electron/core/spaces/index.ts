// Spaces: separate memories and conversations in one data folder (README "Spaces").
export { countSpace } from './counts.js';
export {
  cleanName,
  nameKey,
  PERSONAL_ID,
  PERSONAL_NAME,
  spaceDir,
  type Space,
  type SpaceCounts,
  type SpaceSettings,
} from './model.js';
export { type OpenSpace } from './open-space.js';
export { SpaceRegistry, TRASH_KEEP_MS } from './registry.js';
export { Spaces, type SpaceEventListener } from './spaces.js';
export { type TrashedSpace } from './trash.js';
