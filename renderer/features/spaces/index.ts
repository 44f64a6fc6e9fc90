export { SpaceSwitcher } from './space-switcher';
export { SpaceLabel, spaceColourStyle } from './space-label';
export { MemoryFileTransfer } from './memory-file-transfer';
export { MoveConversationDialog } from './conversation-transfer';
