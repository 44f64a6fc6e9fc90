// Module resolution hook for the main-process smoke test: `electron` (imported by the built main process
// and by electron-store) resolves to the recording stand-in next to this file. Everything else resolves as
// usual. Registered by register.ts through `node --import`.
interface ResolveContext {
  parentURL?: string;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string }>;

export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: NextResolve,
): Promise<{ url: string; shortCircuit?: boolean }> {
  if (specifier === 'electron') {
    return { url: new URL('./electron.js', import.meta.url).href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
