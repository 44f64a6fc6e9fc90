// `npm run web`: browser mode (web-run.ts). This entry checks the Node version first and only then loads
// the rest, bundled with its dependencies by rolldown.config.ts.
import { startFace } from './node-check.js';

await startFace(() => import('./web-run.js'));
