// Links from rendered content (model output, memory files) never navigate the window: a click asks the
// main side, which opens only parsed https: URLs in the system browser.
import { getApi } from '../api';
import { errorMessage } from '../lib/format';
import { toast } from './toast';

export async function openExternal(url: string): Promise<void> {
  try {
    const res = await getApi()['app.openExternal']({ url });
    if (!res.opened)
      toast('That link was not opened: only https links open in your browser.', { tone: 'warning' });
  } catch (err) {
    toast(errorMessage(err), { tone: 'error' });
  }
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard permission can be missing (e.g. an unfocused window): fall back to a hidden textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    let ok: boolean;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    if (!ok) toast('Could not copy to the clipboard.', { tone: 'error' });
    return ok;
  }
}
