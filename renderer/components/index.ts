// Shared UI primitives. Keep these APIs stable: every feature (chat, memory, activity, context, settings)
// builds on them.
export { Button, IconButton, type ButtonProps, type IconButtonProps, type ButtonVariant } from './button';
export { ConfirmBody } from './confirm-body';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
export { Dialog, type DialogProps } from './dialog';
export { DiffView, computeDiffLines } from './diff-view';
export { EmptyState } from './empty-state';
export { Icon, type IconName } from './icons';
export { Markdown } from './markdown';
export { Spinner } from './spinner';
export { Splitter, type SplitterProps } from './splitter';
export { Tabs, type TabItem } from './tabs';
export { Toaster } from './toaster';
export { TypedNameField, typedMatches, type TypedNameFieldProps } from './typed-name-field';
export { toast, useToasts } from '../store/toast';
