/**
 * Hydration after the first paint (decision 025).
 *
 * React Router's `<Scripts/>` puts a module preload for every script of the page in `<head>` and
 * one inline module script that imports the route modules and starts the client. The browser
 * fetches and runs them before it paints: on a phone on a slow network the first paint waited for
 * about 120 KB of JavaScript. Here the preloads are taken out and the module script is made inert
 * (`type="text/x-hydration"`, which no browser runs); a small inline script puts both back once
 * the browser reports the page's first contentful paint (a `PerformanceObserver` of `paint`), or
 * after LATEST_START_MS if it never does; a browser without paint timing starts after the first
 * frame (`requestAnimationFrame` runs just before it is painted, the `setTimeout` it starts just
 * after). The page works as plain HTML (links, forms) until then. A button that only scripts
 * handle (a menu, the sections toggle) and that is clicked in that time (with the mouse, a tap,
 * Enter or Space) is remembered, once however often it was pressed: entry.client.tsx takes the
 * list as soon as React listens, and root.tsx presses each again once the page has hydrated.
 *
 * Only the exact shape React Router writes is changed; any other page is returned as it is. The
 * inert script keeps its text, so a cached page's hash-based policy (page-cache.server.ts) still
 * holds its hash; a signed-in page's loader carries the render's nonce, and the scripts it adds
 * carry it too.
 */
const MODULE_SCRIPT = /<script( nonce="[^"]*")? type="module" async="">([\s\S]*?)<\/script>/g;
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"(?: nonce="[^"]*")?\/>/g;

/** The longest the scripts wait for the first paint (a hidden tab does not paint). */
const LATEST_START_MS = 3000;

/**
 * Each preload link the browser takes costs about a millisecond of the main thread (four on a slow
 * phone): they are added a few at a time, each few in its own task, and the module script in one
 * more, so that none of these tasks is long (decision 049).
 */
const PRELOADS_PER_TASK = 4;

/** The id of the inert script that holds React Router's module script. */
export const HYDRATION_SCRIPT_ID = "hidratacion";

/**
 * The function the loader leaves on `window`: it stops remembering presses and returns the
 * buttons pressed so far (app/entry.client.tsx).
 */
export const HELD_BUTTONS = "__botonesPulsados";

export function deferHydration(html: string): string {
  const scripts = [...html.matchAll(MODULE_SCRIPT)];
  if (scripts.length !== 1) return html;
  const [moduleScript, nonceAttribute = "", code] = scripts[0]!;
  const modules: string[] = [];
  const withoutPreloads = html.replace(MODULE_PRELOAD, (_link, href: string) => {
    modules.push(href);
    return "";
  });
  if (modules.length === 0 || !modules.every((href) => /^\/[\w./-]+\.js$/.test(href))) return html;
  const loader =
    `(function(){var d=document,n=d.currentScript.nonce,m=${JSON.stringify(modules)},q=[];` +
    `function hold(e){var b=e.target.closest&&e.target.closest("button");` +
    `if(b&&(b.type==="button"||!b.form)&&q.indexOf(b)<0)q.push(b)}` +
    `d.addEventListener("click",hold,true);` +
    `window.${HELD_BUTTONS}=function(){d.removeEventListener("click",hold,true);return q};` +
    `function start(){if(started)return;started=true;var i=0;(function next(){` +
    `m.slice(i,i+${PRELOADS_PER_TASK}).forEach(function(h){` +
    `var l=d.createElement("link");l.rel="modulepreload";l.href=h;l.nonce=n;d.head.appendChild(l)});` +
    `i+=${PRELOADS_PER_TASK};if(i<m.length)return setTimeout(next);` +
    `setTimeout(function(){var s=d.createElement("script");s.type="module";s.nonce=n;` +
    `s.textContent=d.getElementById("${HYDRATION_SCRIPT_ID}").textContent;d.body.appendChild(s)})})()}` +
    `var started=false,P=window.PerformanceObserver;` +
    `if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){` +
    `var o=new P(function(l){if(l.getEntriesByName("first-contentful-paint").length){` +
    `o.disconnect();setTimeout(start)}});o.observe({type:"paint",buffered:true})}` +
    `else requestAnimationFrame(function(){setTimeout(start)});setTimeout(start,${LATEST_START_MS})})()`;
  return withoutPreloads.replace(
    moduleScript,
    () =>
      `<script${nonceAttribute} type="text/x-hydration" id="${HYDRATION_SCRIPT_ID}">${code}</script>` +
      `<script${nonceAttribute}>${loader}</script>`,
  );
}
