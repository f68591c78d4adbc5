// An address in a narrow box breaks before its '@' or a dot, never in the middle of a word.
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { EmailAddress } from "~/ui/email-address";

const html = (email: string) => renderToStaticMarkup(<EmailAddress email={email} />);

test("an address may break only before its '@' and its dots; each part, hyphens and all, is kept whole", () => {
  expect(html("miembro-0175dd4b32@ayllu.test")).toBe(
    '<span class="email-address"><span class="email-address-part">miembro-0175dd4b32</span>' +
      '<wbr/><span class="email-address-part">@ayllu</span>' +
      '<wbr/><span class="email-address-part">.test</span></span>',
  );
  // The text reads as the address, for a copy or a screen reader.
  expect(html("ana_perez.q@correo.example.org").replace(/<[^>]+>/g, "")).toBe(
    "ana_perez.q@correo.example.org",
  );
  expect(html("ana_perez.q@correo.example.org").match(/<wbr\/>/g)).toHaveLength(4);
});

test("a part too long for a phone's line may still wrap inside rather than overflow", () => {
  const long = `${"a".repeat(40)}@ayllu.test`;
  expect(html(long)).toContain(`<span>${"a".repeat(40)}</span>`);
  expect(html(long)).toContain('<span class="email-address-part">@ayllu</span>');
});
