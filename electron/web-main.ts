// `npm run web`: browser mode (web-run.ts). This entry checks the Node version first and only then loads
// the rest, which is bundled into one file (rolldown.config.ts).
import { nodeIsSupported } from './node-check.js';

if (nodeIsSupported()) await import('./web-run.js');
