// The side panel as a page module for the memory/activity/context end-to-end tests: every locator by role
// and accessible name (issue 5, point 6), plus small helpers to drive the backend through the contract.
import type { Locator, Page } from 'playwright-core';
import WebSocket from 'ws';
import type { AppServer } from './support/app-server.js';

export class MemoryPanelPage {
  readonly tabs: Locator;
  readonly memory: Locator;
  readonly activity: Locator;
  readonly context: Locator;

  constructor(readonly page: Page) {
    this.tabs = page.getByRole('tablist', { name: 'Side panel' });
    this.memory = page.getByRole('region', { name: 'Memory', exact: true });
    this.activity = page.getByRole('region', { name: 'Activity', exact: true });
    this.context = page.getByRole('region', { name: 'Context', exact: true });
  }

  async show(tab: 'Memory' | 'Activity' | 'Context'): Promise<void> {
    await this.tabs.getByRole('tab', { name: tab }).click();
  }

  file(path: string): Locator {
    return this.memory.getByRole('listitem', { name: path, exact: true });
  }

  fact(text: string): Locator {
    return this.memory.getByRole('listitem', { name: text, exact: true });
  }

  async open(path: string): Promise<void> {
    await this.file(path).getByRole('button', { name: 'Open', exact: true }).click();
  }

  async back(): Promise<void> {
    await this.memory.getByRole('button', { name: /All files/ }).click();
  }

  editor(path: string): Locator {
    return this.memory.getByRole('textbox', { name: `Edit ${path}` });
  }

  toast(text: string | RegExp): Locator {
    return this.page.getByRole('region', { name: 'Notifications' }).locator('.toast', { hasText: text });
  }
}

/**
 * Calls one contract channel over the app's WebSocket, as the page would (same token, same Origin). For
 * setup only (e.g. a setting), never for what a test asserts.
 */
export function invoke(app: AppServer, channel: string, payload: unknown): Promise<unknown> {
  const origin = `http://127.0.0.1:${app.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${app.port}/ws?token=${app.token}`, { origin });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ t: 'invoke', id: 1, channel, payload })));
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as {
        t: string;
        id?: number;
        ok?: boolean;
        value?: unknown;
        error?: unknown;
      };
      if (message.t !== 'result' || message.id !== 1) return;
      ws.close();
      if (message.ok) resolve(message.value);
      else reject(new Error(JSON.stringify(message.error)));
    });
  });
}
