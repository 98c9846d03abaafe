/**
 * CSV cells for spreadsheets. A cell that starts with = + - @ (or a tab or carriage return) would
 * run as a formula in Excel; it is prefixed with an apostrophe, which Excel shows as plain text.
 * A value that itself starts with an apostrophe gets one too, so the import, which drops one
 * leading apostrophe, gives back exactly what was exported.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r']/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Excel in Japan reads UTF-8 only with a byte-order mark. */
export const UTF8_BOM = '\uFEFF';
