// The backend: one object implementing every contract handler, composed from one factory per domain.
// Spreading them into a `Handlers`-typed object makes a missing handler a compile error.
import type { Handlers } from '../../shared/contract.js';
import type { CoreContext } from './context.js';
import { createAppHandlers } from './handlers/app.js';
import { createChatHandlers } from './handlers/chat.js';
import { createContextHandlers } from './handlers/context.js';
import { createConversationsHandlers } from './handlers/conversations.js';
import { createMemoryHandlers } from './handlers/memory.js';
import { createSettingsHandlers } from './handlers/settings.js';
import { createSpacesHandlers } from './handlers/spaces.js';
import { createSyncHandlers } from './handlers/sync.js';
import { createTransferHandlers } from './handlers/transfer.js';

export function createHandlers(ctx: CoreContext): Handlers {
  return {
    ...createAppHandlers(ctx),
    ...createChatHandlers(ctx),
    ...createContextHandlers(ctx),
    ...createConversationsHandlers(ctx),
    ...createMemoryHandlers(ctx),
    ...createSettingsHandlers(ctx),
    ...createSpacesHandlers(ctx),
    ...createSyncHandlers(ctx),
    ...createTransferHandlers(ctx),
  };
}
