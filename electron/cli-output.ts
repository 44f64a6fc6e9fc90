// Where the terminal face prints. Every line passes through visible(): answers, memory content, paths and
// errors may hold terminal control sequences (OSC 52 can write the clipboard, CSI can hide lines above
// the prompt).
import { visible } from './terminal-text.js';

export type Print = (line: string) => void;

export const out: Print = (line) => void process.stdout.write(`${visible(line)}\n`);
export const err: Print = (line) => void process.stderr.write(`${visible(line)}\n`);
