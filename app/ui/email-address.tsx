import { Fragment } from "react";

/** A part of an address longer than this may still wrap inside, rather than run off a phone. */
const KEPT_WHOLE = 24;

/**
 * An e-mail address, or a user name made from one, that a narrow line breaks only before its '@'
 * or a dot: "ana-perez" / "@comunidad" / ".org". Each part between them is kept whole — not even
 * its hyphens break it — unless it is too long for any phone's line.
 */
export function EmailAddress({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <span className="email-address">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          <span className={part.length <= KEPT_WHOLE ? "email-address-part" : undefined}>
            {part}
          </span>
        </Fragment>
      ))}
    </span>
  );
}
