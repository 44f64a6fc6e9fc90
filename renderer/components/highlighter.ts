// Code highlighting (highlight.js with its common grammars, through rehype-highlight: about a fifth of the
// app's JavaScript) arrives in a chunk of its own, loaded while the app is idle after starting, so the
// first screen never waits for it. Until then code blocks render plain; when it arrives, every Markdown
// view on screen renders once more, highlighted (same text, same monospace box: nothing moves).
import { useSyncExternalStore } from 'react';
import type rehypeHighlight from 'rehype-highlight';

type Transform = ReturnType<typeof rehypeHighlight>;

// rehype-highlight builds a new highlight.js instance (registering ~40 grammars, then compiling each one
// used) every time its attacher runs, and react-markdown runs the attachers on every render: one
// transformer, made once, is shared by every render instead.
let transform: Transform | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Loads the highlighter once; every later call returns the same promise. */
export function loadHighlighter(): Promise<void> {
  loading ??= import('rehype-highlight').then(({ default: create }) => {
    transform = create({ detect: false });
    for (const listener of listeners) listener();
  });
  return loading;
}

/** The rehype plugin (an attacher): highlights code once the highlighter is loaded, leaves it plain before. */
export function highlightCode(): Transform {
  return (tree, file) => transform?.(tree, file);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether code is highlighted yet: a component that renders Markdown re-renders when it becomes true. */
export function useHighlighterLoaded(): boolean {
  return useSyncExternalStore(subscribe, () => transform !== null);
}

/** Called when the highlighter arrives (the Markdown cache drops its plain renders). */
export function onHighlighterLoaded(listener: () => void): void {
  listeners.add(listener);
}
