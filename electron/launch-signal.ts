// How `npm start` (launch.ts) learns that the Electron window really opened: main.ts calls
// signalWindowReady() once the window is ready to show, which prints a marker line on stdout when the
// launcher started it. No marker within the launcher's deadline means "Electron could not be loaded".
export const WINDOW_READY_MARKER = 'MNEMO_WINDOW_READY';
export const LAUNCHER_ENV = 'MNEMO_LAUNCHER';

export function signalWindowReady(env: NodeJS.ProcessEnv = process.env): void {
  if (env[LAUNCHER_ENV] === '1') process.stdout.write(`${WINDOW_READY_MARKER}\n`);
}
