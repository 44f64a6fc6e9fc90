// The space switcher and its dialogs as a page module (issue 15): locators by role and accessible name.
import type { Locator, Page } from 'playwright-core';

export class SpacesPage {
  readonly list: Locator;
  readonly popover: Locator;

  constructor(readonly page: Page) {
    this.popover = page.getByRole('dialog', { name: 'Spaces', exact: true });
    this.list = page.getByRole('listbox', { name: 'Spaces', exact: true });
  }

  /** The switcher, named "Space: NAME". */
  switcher(name?: string): Locator {
    return name === undefined
      ? this.page.getByRole('button', { name: /^Space: / })
      : this.page.getByRole('button', { name: `Space: ${name}`, exact: true });
  }

  option(name: string): Locator {
    return this.list.getByRole('option').filter({ has: this.page.getByText(name, { exact: true }) });
  }

  async openList(): Promise<void> {
    if (!(await this.list.isVisible())) await this.switcher().click();
    await this.list.waitFor();
  }

  async switchTo(name: string): Promise<void> {
    await this.openList();
    await this.option(name).click();
    await this.switcher(name).waitFor();
  }

  async create(name: string, colour?: string): Promise<void> {
    await this.openList();
    await this.popover.getByRole('button', { name: 'New space', exact: true }).click();
    const dialog = this.page.getByRole('dialog', { name: 'New space' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    if (colour) await dialog.getByRole('radio', { name: colour }).click();
    await dialog.getByRole('button', { name: 'Create space' }).click();
    await this.switcher(name).waitFor();
  }

  /** Opens the delete dialog of the space `name` (highlighted in the list first). */
  async startDelete(name: string): Promise<Locator> {
    await this.openList();
    await this.option(name).focus();
    await this.popover.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
    const dialog = this.page.getByRole('alertdialog', { name: `Delete space “${name}”?` });
    await dialog.waitFor();
    return dialog;
  }

  /** Opens "Recently deleted" under the list (the spaces in the trash) and answers its list. */
  async openRecentlyDeleted(): Promise<Locator> {
    await this.openList();
    const toggle = this.popover.getByRole('button', { name: /^Recently deleted \(\d+\)$/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const list = this.popover.getByRole('list', { name: 'Recently deleted', exact: true });
    await list.waitFor();
    return list;
  }

  /** The "Copy to space…" / "Move to space…" dialog's target radio and confirm button. */
  async pickTarget(mode: 'Copy' | 'Move', target: string): Promise<void> {
    const dialog = this.page.getByRole('dialog', { name: `${mode} to space` });
    await dialog.getByRole('radio', { name: target }).check();
    await dialog.getByRole('button', { name: `${mode} to ${target}`, exact: true }).click();
  }
}
