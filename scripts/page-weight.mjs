// Prints the JavaScript (gzipped) a page loads on first visit, from the production build:
//   node scripts/page-weight.mjs http://localhost:3000/ http://localhost:3000/profile
// COOKIE="name=value" fetches the page as a signed-in member.
import { gzipSync } from "node:zlib";

for (const target of process.argv.slice(2)) {
  const page = await fetch(target, {
    headers: process.env.COOKIE ? { Cookie: process.env.COOKIE } : {},
    redirect: "manual",
  });
  if (page.status !== 200) {
    console.log(`${target}: ${page.status}`);
    continue;
  }
  const html = await page.text();
  const urls = new Set();
  for (const match of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.js)"/g))
    urls.add(match[1]);
  for (const match of html.matchAll(/import\("([^"]+\.js)"\)|import "([^"]+\.js)"/g))
    urls.add(match[1] ?? match[2]);
  // The modules the loader preloads after the first paint (app/kernel/defer-hydration.server.ts).
  const preloaded = html.match(/,m=(\[[^\]]*\]),q=\[\]/);
  for (const url of preloaded ? JSON.parse(preloaded[1]) : []) urls.add(url);
  let raw = 0;
  let gzipped = 0;
  for (const url of urls) {
    const body = Buffer.from(await (await fetch(new URL(url, target))).arrayBuffer());
    raw += body.length;
    gzipped += gzipSync(body, { level: 9 }).length;
  }
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `${new URL(target).pathname}: ${urls.size} scripts, ${kb(raw)} raw, ${kb(gzipped)} gzipped`,
  );
}
