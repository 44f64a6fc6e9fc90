#!/usr/bin/env node
// `npm run chat` and the `mnemo` command: the terminal face (cli-run.ts). This entry checks the Node
// version first and only then loads the rest, bundled by rolldown.config.ts: an old Node gets one line,
// `--help` reads the flags' small chunk, and a command the backend's chunk as well.
import { startFace } from './node-check.js';

await startFace(() => import('./cli-run.js'));
