import { Fragment } from 'react';

// Before each dot or underscore of the name part: where "yamada.hanako" may break as "yamada" / ".hanako".
const NAME_BREAK = /(?=[._])/;

/**
 * An email address that may break before its domain, and before a dot or an underscore of its name
 * part, never inside a word or a domain: in a narrow column it wraps as "rin.yamashita" /
 * "@docomo.example.net", a long name part as "yamada" / ".hanako" / ".reservations", and lets the
 * table fit (a segment's members at 1280 px in Japanese had 5 px to spare with a 21-letter name part
 * unbroken, and scrolled sideways with a wider one).
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email
        .slice(0, at)
        .split(NAME_BREAK)
        .map((part, i) => (
          <Fragment key={i}>
            {i > 0 && <wbr />}
            {part}
          </Fragment>
        ))}
      <wbr />
      {email.slice(at)}
    </>
  );
}
