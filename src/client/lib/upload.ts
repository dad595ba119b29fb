import { MAX_UPLOAD_BYTES } from '@shared/card-rules';
import { mayBeAcceptedFile } from '@shared/upload-types';
import { handleUnauthorized } from './unauthorized';

export { ACCEPTED_UPLOAD_TYPES } from '@shared/upload-types';

/** A quick check before sending; the server decides by the file's bytes. */
export function localFileProblem(file: File): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name} is larger than 10MB`;
  if (!mayBeAcceptedFile(file)) return `${file.name} is not an image or PDF`;
  return null;
}

/**
 * Sends one file as multipart field `file` (no content type set by us), reporting progress.
 * Rejects with the server's `error` field, or 'Failed to upload file' (spec section 8).
 */
export function uploadFile<T>(
  url: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress((event.loaded / event.total) * 100);
    };
    xhr.onload = () => {
      const body = xhr.response as (T & { error?: string; message?: string }) | null;
      if (xhr.status >= 200 && xhr.status < 300 && body) {
        onProgress(100);
        resolve(body);
      } else {
        if (xhr.status === 401) handleUnauthorized();
        reject(new Error(body?.error ?? body?.message ?? 'Failed to upload file'));
      }
    };
    xhr.onerror = () => reject(new Error('Failed to upload file'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
