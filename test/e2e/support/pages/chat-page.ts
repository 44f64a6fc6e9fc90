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
}
