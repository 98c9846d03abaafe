/** A customer field name (lastName) as its catalogue key (last_name). */
export function fieldKey(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
