// In-page code for the spaces benchmark (bench/ui/spaces.ts), measured with the page's own clock.

const LIST = 'nav[aria-label="Conversations"]';
const MEMORY = 'section[aria-label="Memory"]';

/**
 * Installed before the app loads: the time from navigation to the frame after the conversation list and
 * the memory panel both show their first rows (what a person sees as "the app is open").
 */
export const FIRST_SCREEN_PROBE = `(() => {
  window.__firstScreen = 0;
  const ready = () =>
    document.querySelector('${LIST} .conv-row') &&
    document.querySelector('${MEMORY} li[aria-label^="/memories/"]');
  const observer = new MutationObserver(() => {
    if (!ready()) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__firstScreen = performance.now(); });
  });
  document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true }));
})();`;

export interface SwitchTiming {
  ms: number;
  listMs: number;
  memoryMs: number;
}

/**
 * Opens the switcher, clicks the space named `name`, and resolves once the conversation list and the memory
 * panel both show that space's rows (each seeded space's titles and folders start with its tag). `hover`:
 * the pointer rests on the space before the click (the switcher then opens it in the backend ahead).
 */
export function switchSpaceProbe(name: string, tag: string, hover = false): string {
  return `(async ({ name, tag, hover }) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    document.querySelector('button[aria-label^="Space: "]').click();
    let option;
    while (!(option = [...document.querySelectorAll('[role="listbox"][aria-label="Spaces"] [role="option"]')]
      .find((o) => o.querySelector('.sp-option-name')?.textContent === name))) await frame();
    // A person reads the list before picking (the list's own refresh, its counts, finishes meanwhile);
    // with \`hover\` the pointer rests on the space while reading, as a mouse does on its way to a click.
    if (hover) option.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    let listAt = 0;
    let memoryAt = 0;
    const t0 = performance.now();
    option.click();
    await new Promise((resolve) => {
      const check = () => {
        const now = performance.now();
        if (!listAt && [...document.querySelectorAll('${LIST} .conv-title')].some((t) => t.textContent.startsWith(tag + ' chat'))) listAt = now;
        if (!memoryAt && document.querySelector('${MEMORY} li[aria-label^="/memories/' + tag + '-"]')) memoryAt = now;
        if (listAt && memoryAt) resolve();
        else requestAnimationFrame(check);
      };
      check();
    });
    await frame();
    const end = performance.now();
    return { ms: end - t0, listMs: listAt - t0, memoryMs: memoryAt - t0 };
  })(${JSON.stringify({ name, tag, hover })})`;
}
