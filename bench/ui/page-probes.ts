// Code that runs inside the page (passed to page.evaluate / addInitScript as strings or functions), kept
// apart from the orchestration. Every figure is measured with the page's own clock.

/**
 * Installed before the app loads: timestamps the WebSocket message that carries memory.list's answer
 * (before the app's own handler runs) and the first animation frame after the Memory tree shows a file.
 */
export const MEMORY_LIST_PROBE = `(() => {
  const Native = window.WebSocket;
  window.__bench = { listAt: null, rowsAt: null };
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (window.__bench.listAt === null && typeof event.data === 'string' && event.data.includes('"totalBytes"')) {
          window.__bench.listAt = performance.now();
        }
      });
    }
  };
  const observer = new MutationObserver(() => {
    if (window.__bench.listAt === null || window.__bench.rowsAt !== null) return;
    if (document.querySelector('section[aria-label="Memory"] li[aria-label^="/memories/"]')) {
      window.__bench.rowsAt = -1;
      requestAnimationFrame(() => { window.__bench.rowsAt = performance.now(); });
    }
  });
  document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true }));
})();`;

/** Clicks the conversation's row in the sidebar; resolves with the ms until its last message is painted. */
export function openConversationProbe(args: { title: string; lastText: string }): string {
  return `(async (args) => {
    const row = [...document.querySelectorAll('nav[aria-label="Conversations"] button')].find((b) =>
      (b.textContent ?? '').includes(args.title));
    if (!row) throw new Error('No sidebar row for ' + args.title);
    const t0 = performance.now();
    row.click();
    await new Promise((resolve) => {
      const check = () => {
        const log = document.querySelector('[role="log"]');
        if (log && (log.textContent ?? '').includes(args.lastText)) resolve();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    // The frame in which the text is in the DOM is painted next.
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const ms = performance.now() - t0;
    return {
      ms,
      nodes: document.getElementsByTagName('*').length,
      chatNodes: document.querySelector('[role="log"]')?.getElementsByTagName('*').length ?? 0,
    };
  })(${JSON.stringify(args)})`;
}

/** Starts collecting long tasks and layout shifts (noting those inside the chat log). */
export const START_JANK_PROBE = `(() => {
  window.__jank = { longTasks: [], shifts: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__jank.longTasks.push(entry.duration);
  }).observe({ type: 'longtask' });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      const log = document.querySelector('[role="log"]');
      const inChat = (entry.sources ?? []).some((s) => !!s.node && !!log && log.contains(s.node));
      const nodes = (entry.sources ?? []).map((s) => s.node && s.node.nodeType === 1
        ? s.node.tagName.toLowerCase() + (s.node.className ? '.' + String(s.node.className).split(' ').join('.') : '')
        : '#text');
      window.__jank.shifts.push({ value: entry.value, inChat, nodes });
    }
  }).observe({ type: 'layout-shift' });
})()`;

export interface JankReport {
  longTasks: number[];
  shifts: { value: number; inChat: boolean; nodes: string[] }[];
}
export const READ_JANK_PROBE = 'window.__jank';

export const MEMORY_ROWS_READY =
  'window.__bench && window.__bench.rowsAt !== null && window.__bench.rowsAt > 0';
export const READ_MEMORY_PROBE = `(() => {
  const tree = document.querySelector('section[aria-label="Memory"]');
  return { ms: window.__bench.rowsAt - window.__bench.listAt, nodes: tree ? tree.getElementsByTagName('*').length : 0 };
})()`;

export const LOG_HAS = (needle: string): string =>
  `(document.querySelector('[role="log"]')?.textContent ?? '').includes(${JSON.stringify(needle)})`;
export const LOG_EMPTY = `!document.querySelector('[role="log"] article')`;
