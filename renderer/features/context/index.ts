export { ContextPanel } from './context-panel';
