// Search across memory: hits grouped under their file, the matching text highlighted with <mark>.
import { openFile, useMemoryStore, type SearchHit } from '../../store/memory';
import { highlightSegments } from './highlight';

function Snippet({ hit }: { hit: SearchHit }) {
  return (
    <span className="mp-hit__snippet">
      {highlightSegments(hit.snippet, hit.ranges).map((segment, i) =>
        segment.hit ? <mark key={i}>{segment.text}</mark> : <span key={i}>{segment.text}</span>,
      )}
    </span>
  );
}

export function SearchResults() {
  const hits = useMemoryStore((s) => s.hits);
  const status = useMemoryStore((s) => s.searchStatus);
  const error = useMemoryStore((s) => s.searchError);
  const truncated = useMemoryStore((s) => s.truncated);
  const query = useMemoryStore((s) => s.query);
  if (status === 'error') {
    return (
      <p className="mp-error" role="alert">
        {error}
      </p>
    );
  }
  if (status === 'loading' && hits.length === 0) return <p className="mp-empty">Searching…</p>;
  const files = new Set(hits.map((h) => h.path)).size;
  return (
    <section className="mp-search-results" aria-label="Search results">
      <p className="mp-row__meta" role="status">
        {hits.length === 0
          ? `Nothing in memory matches “${query.trim()}”.`
          : `${hits.length} ${hits.length === 1 ? 'match' : 'matches'} in ${files} ${files === 1 ? 'file' : 'files'}${truncated ? ' (showing the first ones)' : ''}`}
      </p>
      <ul className="mp-hits">
        {hits.map((hit, i) => (
          <li key={`${hit.path}:${hit.line}:${i}`} className="mp-hit">
            <button type="button" className="mp-hit__button" onClick={() => void openFile(hit.path)}>
              <span className="mp-hit__where">
                {hit.path}
                <span className="mp-row__meta">:{hit.line}</span>
              </span>
              <Snippet hit={hit} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
