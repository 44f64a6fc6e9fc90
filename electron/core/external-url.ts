// The one rule for links that leave the app for the system browser, shared by the `app.openExternal`
// handler and the Electron window's new-window handler: a parsed https: URL with a host and no embedded
// credentials. Anything else (http:, file:, javascript:, custom schemes) stays inside.
export type ExternalUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

export function checkExternalUrl(raw: string): ExternalUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'That link is not a valid web address.' };
  }
  if (url.protocol !== 'https:' || url.hostname === '') {
    return { ok: false, reason: 'Only https:// links can be opened.' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'Links with a user name or password are not opened.' };
  }
  return { ok: true, url: url.href };
}
