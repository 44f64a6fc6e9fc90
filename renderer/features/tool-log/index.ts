export { ActivityPanel } from './activity-panel';
