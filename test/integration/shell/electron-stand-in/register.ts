// `node --import <this file> main.js`: installs hooks.ts and the test's driver before the main process loads.
import { register } from 'node:module';

register('./hooks.js', import.meta.url);
await import('./driver.js');
