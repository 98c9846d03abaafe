/**
 * A field name as its catalogue key (`checkInDate` → `check_in_date`, `lastName` → `last_name`):
 * catalogue keys are snake_case. Shared by the segment builder and the customer import.
 */
export function fieldKey(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
