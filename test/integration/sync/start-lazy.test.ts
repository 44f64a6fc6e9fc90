// Starting sync (what every app start does) opens only the spaces that have a remote: the others stay
// closed until used (issue 15, point 7: opening the app costs no more with 50 spaces than with one). It
// opened every space to ask whether it had a remote, so a start with 50 spaces read all 50 memories.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';
import { call, startHarness, type Harness } from '../agent/harness.js';

let server: GitServer;
let h: Harness;
beforeAll(async () => {
  server = await startGitServer();
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

it('sync.start opens the spaces with a remote, and no other', async () => {
  const work = (await h.core.spaces.ensure('Work')).space;
  const home = (await h.core.spaces.ensure('Home')).space;
  const url = server.createRepo('work').replace('http://', `http://${DEFAULT_USER}@`);
  const opened = await h.core.spaces.route(work.id);
  const joined = await opened.handlers['sync.configure'](
    { url, token: DEFAULT_TOKEN, deviceName: 'Laptop' },
    call,
  );
  expect(joined.joined).toBe(true);

  await h.restart();
  expect(h.core.spaces.isOpen(work.id)).toBe(false);
  await h.core.sync.start();
  expect(h.core.spaces.isOpen(work.id)).toBe(true);
  expect(h.core.sync.status(work.id).state).not.toBe('off');
  expect(h.core.spaces.isOpen(home.id)).toBe(false);
});
