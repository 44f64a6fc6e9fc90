// The window around the chat as a page module: the conversations sidebar, settings, the shortcuts dialog,
// the side panel's tabs, the first-run screen and the theme. Locators by role and accessible name.
import type { Locator, Page } from 'playwright-core';

export class ShellPage {
  readonly sidebar: Locator;
  readonly settingsButton: Locator;
  readonly settingsDialog: Locator;
  readonly helpDialog: Locator;
  readonly firstRunHeading: Locator;
  readonly apiKeyInput: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.getByRole('navigation', { name: 'Conversations' });
    this.settingsButton = page.getByRole('button', { name: 'Settings', exact: true });
    this.settingsDialog = page.getByRole('dialog', { name: 'Settings' });
    this.helpDialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    this.firstRunHeading = page.getByRole('heading', { name: 'Welcome to Mnemo' });
    this.apiKeyInput = page.getByLabel('API key', { exact: true });
  }

  /** Resolves once the app shell (or the first-run screen) is on screen. */
  async ready(): Promise<void> {
    await this.page
      .getByRole('textbox', { name: 'Message', exact: true })
      .or(this.firstRunHeading)
      .first()
      .waitFor();
  }

  /** The theme applied to the page (<html data-theme>). */
  theme(): Promise<string | undefined> {
    return this.page.evaluate<string | undefined>('document.documentElement.dataset.theme');
  }

  conversation(title: string): Locator {
    return this.sidebar.getByRole('listitem').filter({ hasText: title });
  }

  async openConversation(title: string): Promise<void> {
    await this.conversation(title).getByRole('button').first().click();
  }

  tab(name: 'Memory' | 'Activity' | 'Context'): Locator {
    return this.page.getByRole('tab', { name, exact: true });
  }

  async openSettings(): Promise<Locator> {
    await this.settingsButton.click();
    await this.settingsDialog.waitFor();
    return this.settingsDialog;
  }

  async openHelp(): Promise<Locator> {
    await this.page.keyboard.press('Control+/');
    await this.helpDialog.waitFor();
    return this.helpDialog;
  }

  /** Sets the theme through Settings (saved by the backend), then closes the dialog. */
  async setTheme(theme: 'Light' | 'Dark' | 'System'): Promise<void> {
    const dialog = await this.openSettings();
    await dialog.getByRole('radio', { name: theme, exact: true }).check();
    if (theme !== 'System') {
      await this.page.waitForFunction(`document.documentElement.dataset.theme === '${theme.toLowerCase()}'`);
    }
    await this.page.keyboard.press('Escape');
    await this.settingsDialog.waitFor({ state: 'detached' });
  }
}
