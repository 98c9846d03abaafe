import { useRef, useState, type ChangeEvent } from 'react';

/**
 * An image chosen through a hidden file input and uploaded at once. A problem found before
 * sending (wrong type, too big) or the server's refusal is kept as a catalogue key. Put
 * `inputProps` on an `<input>` and call `pick()` from the visible button.
 */
export function useImageUpload({
  problemOf,
  upload,
  refusalOf,
  onUploaded,
}: {
  /** What is wrong with the file before it is sent, as a catalogue key, or null. */
  problemOf: (file: File) => string | null;
  /** Sends the file; resolves to its URL. */
  upload: (file: File) => Promise<string>;
  /** The catalogue key for an upload the server refused. */
  refusalOf: (error: unknown) => string;
  onUploaded: (url: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    // Cleared, so choosing the same file again uploads it again.
    event.currentTarget.value = '';
    if (!file) return;
    const found = problemOf(file);
    setProblem(found);
    if (found) return;
    setUploading(true);
    try {
      onUploaded(await upload(file));
    } catch (error) {
      setProblem(refusalOf(error));
    } finally {
      setUploading(false);
    }
  };

  return {
    uploading,
    problem,
    setProblem,
    pick: () => input.current?.click(),
    inputProps: {
      ref: input,
      type: 'file',
      accept: '.jpg,.jpeg,.png,image/jpeg,image/png',
      hidden: true,
      onChange: (event: ChangeEvent<HTMLInputElement>) => void choose(event),
    },
  };
}
