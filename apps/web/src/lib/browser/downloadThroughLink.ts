import { ZErrorBody } from '@yado/contracts/errors';
import { ApiError } from '../http/ApiError';

let frame: HTMLIFrameElement | null = null;

/**
 * Lets the browser download a file from a short-lived link the server gave: the browser streams it
 * to disk, so the page holds none of it, whatever its size. A navigation cannot carry the bearer
 * token, which is why the link exists. The link opens in a hidden frame rather than the page, so
 * that a refusal (the link expired, the role was taken away) does not replace the console: the
 * frame then shows the server's JSON error, which is handed to `onRefused`. A file answer never
 * loads as a document, so only a refusal reaches it.
 */
export function downloadThroughLink(url: string, onRefused: (error: ApiError) => void): void {
  frame?.remove();
  const next = document.createElement('iframe');
  next.hidden = true;
  next.tabIndex = -1;
  next.setAttribute('aria-hidden', 'true');
  next.dataset.testid = 'download-frame';
  next.addEventListener('load', () => {
    const failure = ZErrorBody.safeParse(parseJson(next.contentDocument?.body?.textContent ?? ''));
    if (failure.success) {
      const { code, message } = failure.data.error;
      onRefused(new ApiError(0, code, message));
    }
  });
  next.src = url;
  document.body.append(next);
  frame = next;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: an empty frame, or a file the browser showed instead of saving. Not a refusal.
    return null;
  }
}
