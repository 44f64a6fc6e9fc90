// The chat end to end (issue 5, point 2): the built renderer in Chromium against browser mode, the fake
// Anthropic API and a temp data dir. Stop mid-stream; an error inline with Retry; pin, regenerate and
// edit-and-resend (checked in what the model is sent next); reloading mid-stream re-attaches to the run;
// a conversation exports as Markdown.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { gate, midStreamError, text } from '../fixtures/fake-anthropic/index.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';

const e2e = useE2EApp();
const poll = { timeout: 15_000, interval: 50 };

let page: Page;
let chat: ChatPage;
let pageErrors: Error[];

beforeAll(async () => {
  ({ page, pageErrors } = await e2e.open());
  chat = new ChatPage(page);
  await new ShellPage(page).ready();
});

/** Starts a fresh conversation so each test reads only its own messages. */
async function newChat(): Promise<void> {
  await chat.newChatButton.click();
  await expect.poll(() => chat.answers.count(), poll).toBe(0);
}

/** The text of every message of the last request's history, by role. */
function lastRequestTexts(): { role: string; text: string }[] {
  const request = e2e.fake.messageRequests().at(-1);
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages.map((m) => ({
    role: m.role,
    text:
      typeof m.content === 'string'
        ? m.content
        : (m.content as { type: string; text?: string }[])
            .filter((b) => b.type === 'text')
            .map((b) => b.text)
            .join(''),
  }));
}

describe('the chat', () => {
  it('Stop ends a streaming answer and keeps what arrived', async () => {
    await newChat();
    const held = gate({
      afterEvents: 6,
      reply: text('Counting slowly: one two three four five six seven eight.'),
    });
    e2e.fake.enqueue(held);
    await chat.send('count for me');
    await held.reached;
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Counting slowly: one');
    await chat.stopButton.click();
    await expect.poll(() => chat.sendButton.isVisible(), poll).toBe(true);
    const answer = await chat.lastAnswer().innerText();
    expect(answer).toContain('Stopped');
    expect(answer).not.toContain('eight.');
    held.release();
  });

  it('shows an error inline and Retry resends without duplicating the turn', async () => {
    await newChat();
    e2e.fake.enqueue(midStreamError({ afterEvents: 4, message: 'Overloaded' }));
    const before = e2e.fake.messageRequests().length;
    await chat.send('please answer');
    await chat.errorCard.waitFor();
    expect(await chat.errorCard.innerText()).toMatch(/overloaded|problem|error/i);

    e2e.fake.enqueue(text('Here is the answer after the retry.'));
    await chat.errorCard.getByRole('button', { name: 'Retry' }).click();
    await expect
      .poll(() => chat.lastAnswer().innerText(), poll)
      .toContain('Here is the answer after the retry.');
    await expect.poll(() => chat.errorCard.count(), poll).toBe(0);
    expect(e2e.fake.messageRequests().length).toBeGreaterThan(before + 1);
    const users = lastRequestTexts().filter((m) => m.role === 'user' && m.text.includes('please answer'));
    expect(users).toHaveLength(1);
    expect(await chat.userMessages.count()).toBe(1);
  });

  it('an error card is there after a reload, and gone after its Retry and another reload', async () => {
    await newChat();
    e2e.fake.enqueue(midStreamError({ afterEvents: 4, message: 'Overloaded' }));
    await chat.send('answer after a reload');
    await chat.errorCard.waitFor();
    await page.reload();
    await new ShellPage(page).ready();
    await chat.errorCard.waitFor();
    expect(await chat.errorCard.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);

    e2e.fake.enqueue(text('Answered after the reload.'));
    await chat.errorCard.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Answered after the reload.');
    await expect.poll(() => chat.stopButton.isVisible(), poll).toBe(false);
    const shown = await chat.conversation.innerText();
    await page.reload();
    await new ShellPage(page).ready();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Answered after the reload.');
    // As it read before the reload: no error card, one answer, the question once.
    expect(await chat.errorCard.count()).toBe(0);
    expect(await chat.answers.count()).toBe(1);
    expect(await chat.userMessages.count()).toBe(1);
    expect(await chat.conversation.innerText()).toBe(shown);
  });

  it('pins a message, regenerates the last answer, and edits and resends a question', async () => {
    await newChat();
    e2e.fake.enqueue(text('Paris is the capital of France.'));
    await chat.send('What is the capital of France?');
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Paris is the capital');

    // Pin: the button shows it pressed, and it survives a reload (the backend keeps it).
    const pin = await chat.messageAction(chat.lastAnswer(), 'Pin');
    await pin.click();
    await expect
      .poll(
        async () => (await chat.messageAction(chat.lastAnswer(), 'Unpin')).getAttribute('aria-pressed'),
        poll,
      )
      .toBe('true');
    await page.reload();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Paris is the capital');
    await expect
      .poll(
        async () => (await chat.messageAction(chat.lastAnswer(), 'Unpin')).getAttribute('aria-pressed'),
        poll,
      )
      .toBe('true');

    // Regenerate: a new answer replaces the old one, which is not in the new request.
    e2e.fake.enqueue(text('The capital of France is Paris, on the Seine.'));
    await (await chat.messageAction(chat.lastAnswer(), 'Regenerate')).click();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('on the Seine');
    expect(await chat.answers.count()).toBe(1);
    expect(
      lastRequestTexts()
        .map((m) => m.text)
        .join('\n'),
    ).not.toContain('Paris is the capital');

    // Edit and resend: the question is replaced and everything after it too.
    e2e.fake.enqueue(text('Rome is the capital of Italy.'));
    await chat.editAndResend(chat.userMessages.last(), 'What is the capital of Italy?');
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Rome is the capital');
    expect(await chat.userMessages.count()).toBe(1);
    expect(await chat.userMessages.first().innerText()).toContain('capital of Italy?');
    expect(await chat.answers.count()).toBe(1);
    const sent = lastRequestTexts();
    const asked = sent.filter((m) => m.role === 'user' && m.text.includes('What is the capital of Italy?'));
    expect(asked).toHaveLength(1);
    expect(sent.map((m) => m.text).join('\n')).not.toContain('France');
  });

  it('reloading the window mid-stream re-attaches to the run', async () => {
    await newChat();
    const answer = 'Before the reload these words arrived, and after the reload the rest streamed in.';
    const held = gate({ afterEvents: 7, reply: text(answer) });
    e2e.fake.enqueue(held);
    await chat.send('stream across a reload');
    await held.reached;
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Before the reload');

    await page.reload();
    // The partial answer is back, the run is still going (Stop), and nothing is shown twice.
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Before the reload');
    await expect.poll(() => chat.stopButton.isVisible(), poll).toBe(true);
    expect(await chat.lastAnswer().innerText()).not.toContain('streamed in.');

    held.release();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('the rest streamed in.');
    await expect.poll(() => chat.stopButton.isVisible(), poll).toBe(false);
    const shown = await chat.conversation.innerText();
    expect(shown.split('Before the reload').length - 1).toBe(1);
    expect(await chat.userMessages.count()).toBe(1);
    expect(await chat.answers.count()).toBe(1);
  });

  it('exports the conversation as a Markdown download', async () => {
    await newChat();
    e2e.fake.enqueue(text('Pack light: a jacket, good shoes and **sunscreen**.'));
    await chat.send('What should I pack for Lisbon?');
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('sunscreen');
    await expect.poll(() => chat.stopButton.isVisible(), poll).toBe(false);
    const [download] = await Promise.all([page.waitForEvent('download'), chat.exportButton.click()]);
    expect(download.suggestedFilename()).toMatch(/\.md$/);
    const markdown = await readFile((await download.path())!, 'utf8');
    expect(markdown).toContain('What should I pack for Lisbon?');
    expect(markdown).toContain('Pack light: a jacket, good shoes and **sunscreen**.');
    expect(markdown).toMatch(/^# /);
  });

  it('had no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
