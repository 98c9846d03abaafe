import { forwardRef } from 'react';

export interface TPreviewFrameProps {
  /** The server's HTML of the mail, shown as it is: the console never renders a mail itself. */
  html: string;
  width: number;
  height: number;
  title: string;
  /** A scaled-down thumbnail: not focusable, not clickable. */
  thumbnail?: boolean;
  testId?: string;
}

/**
 * A mail in a sandboxed frame: scripts never run (no allow-scripts); same origin only so the
 * console can measure the frame (horizontal scrolling); links open in a new tab.
 */
export const PreviewFrame = forwardRef<HTMLIFrameElement, TPreviewFrameProps>(function PreviewFrame(
  { html, width, height, title, thumbnail = false, testId },
  ref,
) {
  return (
    <iframe
      ref={ref}
      title={title}
      srcDoc={html}
      sandbox={thumbnail ? 'allow-same-origin' : 'allow-same-origin allow-popups allow-popups-to-escape-sandbox'}
      width={width}
      height={height}
      tabIndex={thumbnail ? -1 : undefined}
      data-testid={testId}
      style={{ border: 0, display: 'block', background: '#ffffff', pointerEvents: thumbnail ? 'none' : undefined }}
    />
  );
});
