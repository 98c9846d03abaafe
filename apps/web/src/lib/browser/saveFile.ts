/** Hands a downloaded file to the browser's save flow under `filename`. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: a browser may still be reading the object URL after the click.
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}
