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
}
