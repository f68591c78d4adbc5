/** Text for an XML element or attribute. Characters XML 1.0 cannot hold are dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // The characters XML 1.0 allows, control characters among them.
      // eslint-disable-next-line no-control-regex
      .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
      .replaceAll("&", "&amp;")
      .replaceAll("<", "&lt;")
      .replaceAll(">", "&gt;")
      .replaceAll('"', "&quot;")
      .replaceAll("'", "&apos;")
  );
}
