// `npm start`: the desktop window, else browser mode (launch-run.ts). This entry checks the Node version
// first and only then loads the rest, bundled with its dependencies by rolldown.config.ts.
import { startFace } from './node-check.js';

await startFace(() => import('./launch-run.js'));
