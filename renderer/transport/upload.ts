// Browser mode's half of memory import: the file goes to the server first (POST /upload with the page's
// token), and the upload id it returns is passed to memory.importPreview. In Electron a native dialog picks
// the file instead, so this is never needed there.
import { ContractError } from '../../shared/errors.js';

export async function uploadFile(file: Blob, fileName: string, token: string, base: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(new URL('/upload', base), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/octet-stream',
        'X-Mnemo-Token': token,
        'X-File-Name': encodeURIComponent(fileName),
      },
      body: file,
    });
  } catch {
    throw new ContractError('unavailable', 'Could not upload the file: Mnemo is not reachable.');
  }
  const body = (await response.json().catch(() => null)) as {
    uploadId?: string;
    error?: { message?: string };
  } | null;
  if (response.ok && typeof body?.uploadId === 'string') return body.uploadId;
  throw new ContractError(
    response.status === 413 ? 'invalid_request' : 'unavailable',
    body?.error?.message ?? `The upload failed (HTTP ${response.status}).`,
  );
}
