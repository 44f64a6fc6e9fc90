// `node --import <this file> main.js`: installs hooks.ts before the main process loads.
import { register } from 'node:module';

register('./hooks.js', import.meta.url);
