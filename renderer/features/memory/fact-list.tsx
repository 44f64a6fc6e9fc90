// A file's facts (its list items and paragraphs) as separate items, each with its own "Forget": forgetting
// one fact never means editing Markdown by hand. Headings group the facts below them and are not items.
import { useState } from 'react';
import type { Fact } from '../../../shared/channels/memory';
import { forgetFact, revertChange } from '../../store/memory';
import { errorMessage } from '../../lib/format';
import { Button } from '../../components/button';
import { toast } from '../../store/toast';
import { undoAction } from './undo';

function preview(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

export function FactList({ facts }: { facts: readonly Fact[] }) {
  const [busy, setBusy] = useState<string | null>(null);
  const forgettable = facts.filter((f) => f.kind !== 'heading');
  if (forgettable.length === 0) {
    return <p className="mp-empty">No facts in this file yet. Open the editor to write some.</p>;
  }
  const onForget = async (fact: Fact) => {
    setBusy(fact.id);
    try {
      const journalId = await forgetFact(fact);
      toast(`Forgot “${preview(fact.text)}”`, {
        action: undoAction(() => revertChange(journalId), 'The fact is back.'),
      });
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="mp-facts">
      {groupByHeading(facts).map((group) => (
        <section key={group.key} className="mp-fact-group" aria-label={group.heading ?? 'Facts'}>
          {group.heading && <h4 className="mp-fact-heading">{group.heading}</h4>}
          <ul className="mp-fact-list">
            {group.facts.map((fact) => (
              <li key={fact.id} className="mp-fact" aria-label={fact.text}>
                <span className="mp-fact__text">{fact.text}</span>
                <Button
                  size="sm"
                  variant="ghost"
                  className="mp-danger-text"
                  disabled={busy !== null}
                  onClick={() => void onForget(fact)}
                >
                  {busy === fact.id ? 'Forgetting…' : 'Forget'}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

interface FactGroup {
  key: string;
  heading: string | null;
  facts: Fact[];
}

/** Facts under the heading they follow; facts before any heading form an unnamed first group. */
export function groupByHeading(facts: readonly Fact[]): FactGroup[] {
  const groups: FactGroup[] = [];
  let current: FactGroup | null = null;
  for (const fact of facts) {
    if (fact.kind === 'heading') {
      current = { key: fact.id, heading: fact.text, facts: [] };
      groups.push(current);
    } else {
      if (!current) {
        current = { key: 'top', heading: null, facts: [] };
        groups.push(current);
      }
      current.facts.push(fact);
    }
  }
  return groups.filter((g) => g.facts.length > 0);
}
