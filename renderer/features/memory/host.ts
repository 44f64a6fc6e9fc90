// Which face the app runs in (app.info), asked once: some flows differ between Electron (native dialogs)
// and the browser (a download, an upload, the panel's own confirmations).
import { getApi } from '../../api';

let hostKind: Promise<string> | null = null;

export function host(): Promise<string> {
  if (!hostKind) {
    const api = getApi();
    hostKind = api['app.info']({})
      .then((info) => info.host)
      .catch(() => 'browser');
  }
  return hostKind;
}

/** For tests that switch backends: forget the cached answer. */
export function resetHost(): void {
  hostKind = null;
}
