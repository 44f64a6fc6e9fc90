// The chat as a page module: every locator by role and accessible name (the names issue 5 fixes), so the
// tests read like what a user does and survive restyling.
import type { Locator, Page } from 'playwright-core';

export class ChatPage {
  readonly messageBox: Locator;
  readonly sendButton: Locator;
  readonly stopButton: Locator;
  readonly conversation: Locator;
  readonly answers: Locator;
  readonly userMessages: Locator;

  constructor(readonly page: Page) {
    this.messageBox = page.getByRole('textbox', { name: 'Message', exact: true });
    this.sendButton = page.getByRole('button', { name: 'Send', exact: true });
    this.stopButton = page.getByRole('button', { name: 'Stop', exact: true });
    this.conversation = page.getByRole('log', { name: 'Conversation' });
    this.answers = this.conversation.getByRole('article', { name: 'Mnemo', exact: true });
    this.userMessages = this.conversation.getByRole('article', { name: 'You', exact: true });
  }

  /** Types into the textbox named "Message" and presses the button named "Send". */
  async send(text: string): Promise<void> {
    await this.messageBox.fill(text);
    await this.sendButton.click();
  }

  lastAnswer(): Locator {
    return this.answers.last();
  }

  // Added by the chat UI's tests: message actions and inline cards, by their accessible names.

  /** A message's action button ("Copy", "Pin"/"Unpin", "Regenerate", "Edit"), shown on hover/focus. */
  async messageAction(message: Locator, name: string): Promise<Locator> {
    await message.hover();
    return message.getByRole('button', { name, exact: true });
  }

  /** Edit a user message in place and resend it. */
  async editAndResend(message: Locator, text: string): Promise<void> {
    await (await this.messageAction(message, 'Edit')).click();
    const editor = this.page.getByRole('textbox', { name: 'Edited message' });
    await editor.fill(text);
    await this.page.getByRole('button', { name: 'Save and resend' }).click();
  }

  /** The inline error of a failed run (role alert inside the conversation). */
  get errorCard(): Locator {
    return this.conversation.getByRole('alert');
  }

  /** An inline card (tool call, memory change, backfill, compaction...) by (part of) its name. */
  card(name: string | RegExp): Locator {
    return this.conversation.getByRole('region', { name });
  }

  get newChatButton(): Locator {
    return this.page.getByRole('button', { name: 'New chat', exact: true });
  }

  get exportButton(): Locator {
    return this.page.getByRole('button', { name: 'Export as Markdown' });
  }

  // Added by the long-conversation test: the transcript's rows by message id, and its scrolling.

  /** The transcript's row for a message (rendered only while near the viewport). */
  row(messageId: string): Locator {
    return this.conversation.locator(`[data-message-id="${messageId}"]`);
  }

  /** Where the items of the open conversation stand: the row's index among them (-1: not rendered). */
  async indexOf(messageId: string): Promise<number> {
    const row = this.row(messageId);
    if ((await row.count()) === 0) return -1;
    return Number(await row.getAttribute('data-index'));
  }

  /** The row's top relative to the transcript's visible top (null: not rendered). */
  async topOf(messageId: string): Promise<number | null> {
    const row = this.row(messageId);
    if ((await row.count()) === 0) return null;
    return row.evaluate((el) => {
      const log = el.closest('[role="log"]')!;
      return el.getBoundingClientRect().top - log.getBoundingClientRect().top;
    });
  }

  /** Scrolls the transcript by `dy` pixels, as the mouse wheel over it does. */
  async wheel(dy: number): Promise<void> {
    const box = (await this.conversation.boundingBox())!;
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await this.page.mouse.wheel(0, dy);
  }

  /** True while a page of the conversation is being fetched (the log is aria-busy). */
  async paging(): Promise<boolean> {
    return (await this.conversation.getAttribute('aria-busy')) === 'true';
  }

  /** The ids of the rows in the DOM, top to bottom. */
  rowIds(): Promise<string[]> {
    return this.conversation
      .locator('[data-message-id]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-message-id') ?? ''));
  }
}
