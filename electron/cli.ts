#!/usr/bin/env node
// `npm run chat` and the `mnemo` command: the terminal face (cli-run.ts). This entry checks the Node
// version first and only then loads the rest, which is bundled into one file (rolldown.config.ts), so an
// old Node gets one line and `--help` reads one file.
import { startFace } from './node-check.js';

await startFace(() => import('./cli-run.js'));
