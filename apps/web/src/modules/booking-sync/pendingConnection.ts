/**
 * The account ID and API key a brand admin entered in settings, handed to the verification page
 * in memory only: the key never goes into the address, the history state or storage. Taken once;
 * a reload of the verification page finds nothing and sends the user back to settings.
 */
let pending: { accountId: string; apiKey: string } | null = null;

export function setPendingConnection(value: { accountId: string; apiKey: string }): void {
  pending = value;
}

export function takePendingConnection(): { accountId: string; apiKey: string } | null {
  const value = pending;
  pending = null;
  return value;
}
