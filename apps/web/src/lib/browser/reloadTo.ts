/** A full page load at `address`, so that every cached answer of the previous role is dropped. */
export function reloadTo(address: string): void {
  window.location.assign(address);
}
