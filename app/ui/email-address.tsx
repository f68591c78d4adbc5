/**
 * An e-mail address that a narrow line breaks before its '@' or a dot (or after a hyphen, as
 * always), not in the middle of a word: "ana.perez" / "@comunidad" / ".org".
 */
export function EmailAddress({ email }: { email: string }) {
  const [first, ...rest] = email.split(/(?=[@.])/);
  return (
    <>
      {first}
      {rest.map((part, index) => (
        <span key={index}>
          <wbr />
          {part}
        </span>
      ))}
    </>
  );
}
