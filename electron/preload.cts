// The sandboxed preload: exposes the contract as named functions (`window.mnemo['chat.send'](...)`) and
// `on(event, listener) → unsubscribe`; never ipcRenderer. A sandboxed preload can only require
// 'electron', so vite.preload.config.ts bundles this file and what it imports into one CommonJS file,
// dist/electron/preload.cjs (built by `npm run build:node`).
// Reviewed use of contextBridge: the exposed object is built by createBridge from the contract's channel
// names; each function forwards one object argument to the one generic IPC channel, whose main side checks
// the sender frame and parses the payload (electron/core/transports/ipc-server.ts).
import electron = require('electron');
import bridge = require('./core/transports/ipc-bridge.js');

electron.contextBridge.exposeInMainWorld('mnemo', bridge.createBridge(electron.ipcRenderer));
