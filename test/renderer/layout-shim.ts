// jsdom has no layout: every box is 0×0, so a virtualized list would think its viewport is empty and
// render nothing. Give elements a viewport-sized client box (item heights stay 0, so every item is
// "visible"). This shapes the environment only; the components run unchanged.
export function installLayoutShim(width = 1000, height = 800): () => void {
  const saved = ['clientWidth', 'clientHeight'].map(
    (key) => [key, Object.getOwnPropertyDescriptor(Element.prototype, key)] as const,
  );
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => width });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => height });
  return () => {
    for (const [key] of saved) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
  };
}
