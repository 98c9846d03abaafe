/**
 * An email address that may break before its domain, never inside a name or a domain: in a
 * narrow column it wraps as "rin.yamashita" / "@docomo.example.net", and lets the table fit.
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
