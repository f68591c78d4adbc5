/**
 * An e-mail address, or a user name made from one, that a narrow line breaks before its '@', a dot
 * or an underscore (or after a hyphen, as always), not in the middle of a word: "ana.perez" /
 * "@comunidad" / ".org".
 */
export function EmailAddress({ email }: { email: string }) {
  const [first, ...rest] = email.split(/(?=[@._])/);
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
