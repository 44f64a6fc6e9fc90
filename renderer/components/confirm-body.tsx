// A confirmation's text as shared/confirmations.ts words it: its first paragraph (paths shown as code),
// then any further ones.
import type { ReactElement } from 'react';
import type { PageConfirm } from '../../shared/confirmations.js';

export function ConfirmBody({ ask }: { ask: PageConfirm }): ReactElement {
  return (
    <>
      <p>{ask.body.map((part, i) => (typeof part === 'string' ? part : <code key={i}>{part.code}</code>))}</p>
      {ask.more?.map((text) => (
        <p key={text}>{text}</p>
      ))}
    </>
  );
}
