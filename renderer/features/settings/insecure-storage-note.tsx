// The warning shown wherever a key can be saved while no OS keychain is available (e.g. Linux without a
// keyring, browser mode, the CLI): the key would be kept in an owner-only file, not encrypted.
import type { ReactElement } from 'react';

export function InsecureStorageNote(): ReactElement {
  return (
    <p className="settings-warning" role="note">
      No system keychain is available, so a key saved here is kept in a private file (readable by your user
      account only), not encrypted. Setting ANTHROPIC_API_KEY in the environment avoids storing it.
    </p>
  );
}
