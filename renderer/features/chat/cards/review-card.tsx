// "Ask me" mode: the run waits at a memory write until the user approves, edits or rejects it.
import { useState, type ReactElement } from 'react';
import { Button, DiffView } from '../../../components';
import { useChat, type ChatItem } from '../../../store/chat';

type ReviewItem = Extract<ChatItem, { kind: 'review' }>;

const outcomes = { approved: 'Approved', edited: 'Approved with edits', rejected: 'Rejected' } as const;

export function ReviewCard({ item }: { item: ReviewItem }): ReactElement {
  const review = useChat((s) => s.review);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.after ?? '');
  const [busy, setBusy] = useState(false);
  const decide = (decision: 'approve' | 'edit' | 'reject', content?: string): void => {
    setBusy(true);
    void review(item.reviewId, decision, content).finally(() => setBusy(false));
  };
  const pending = item.outcome === null;
  const title = `Mnemo wants to ${item.command.replace('_', ' ')} ${item.path}`;
  return (
    <section
      className={`card card-review${pending ? ' card-review-pending' : ''}`}
      aria-label="Memory change to review"
    >
      <div className="review-head">
        <p className="review-title">{title}</p>
        {!pending && <span className="badge">{outcomes[item.outcome!]}</span>}
      </div>
      {editing ? (
        <div className="review-edit">
          <label className="field-label" htmlFor={`review-${item.reviewId}`}>
            Content to write
          </label>
          <textarea
            id={`review-${item.reviewId}`}
            className="textarea review-textarea"
            value={draft}
            rows={Math.min(14, Math.max(4, draft.split('\n').length + 1))}
            onChange={(e) => setDraft(e.target.value)}
          />
        </div>
      ) : (
        <DiffView before={item.before} after={item.after} label={`Proposed change to ${item.path}`} />
      )}
      {pending && (
        <div className="review-actions">
          {editing ? (
            <>
              <Button size="sm" onClick={() => setEditing(false)} disabled={busy}>
                Cancel
              </Button>
              <Button size="sm" variant="primary" onClick={() => decide('edit', draft)} disabled={busy}>
                Save and approve
              </Button>
            </>
          ) : (
            <>
              <Button size="sm" onClick={() => decide('reject')} disabled={busy}>
                Reject
              </Button>
              {item.after !== null && (
                <Button size="sm" onClick={() => setEditing(true)} disabled={busy}>
                  Edit
                </Button>
              )}
              <Button size="sm" variant="primary" onClick={() => decide('approve')} disabled={busy}>
                Approve
              </Button>
            </>
          )}
        </div>
      )}
    </section>
  );
}
