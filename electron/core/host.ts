// Host services: what differs between the Electron window and browser mode. Electron implements them with
// native dialogs and the shell; browser mode with downloads, uploads and no-ops; tests with temp files.
export interface SaveFileRequest {
  defaultName: string;
  mime: string;
  data: Uint8Array;
}
export interface SaveFileResult {
  saved: boolean;
  fileName?: string;
  /** Browser mode: a one-time URL the renderer navigates to for the download. */
  downloadUrl?: string;
}

export type ImportSource = { kind: 'zip'; name: string; data: Uint8Array } | { kind: 'folder'; path: string };

export interface HostServices {
  readonly kind: 'electron' | 'browser' | 'test';
  saveFile(request: SaveFileRequest): Promise<SaveFileResult>;
  /** Electron: an open dialog (`uploadId` ignored). Browser: the upload the renderer made before. */
  pickImport(request: { uploadId?: string | undefined }): Promise<ImportSource | null>;
  /** Only called with URLs already checked to be https:. */
  openExternal(url: string): Promise<boolean>;
  /** Reveal a folder in the file manager. */
  openFolder(path: string): Promise<boolean>;
  /**
   * Ask before a destructive action where shared/confirmations.ts says the host asks (deleting a folder,
   * forgetting a file). Electron: a native message box. Without it the page asks with its own dialog.
   */
  confirm?(request: { message: string; detail: string; confirmLabel: string }): Promise<boolean>;
}
