import fontLatin from "@fontsource/space-grotesk/files/space-grotesk-latin-300-normal.woff2?url";
// The design system (docs/decisions/014-design-system.md): tokens, element defaults, shared
// components, then one stylesheet per area. Vite joins them into one render-blocking request.
import "./styles/tokens.css";
import "./styles/base.css";
import "./styles/ui.css";
import "./styles/site.css";
import "./styles/dialogs.css";
import "./styles/events.css";
import "./styles/publications.css";
import "./styles/admin.css";
import "./styles/profile.css";
import "./styles/certificates.css";
import "./styles/mail.css";
import "./styles/landing.css";
import "./styles/demo.css";
import { useEffect } from "react";
import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useNavigation,
  useRouteLoaderData,
} from "react-router";
import { photoOf } from "~/members/user.server";
import { getUser } from "~/guards.server";
import { loadDemoSections, loadSiteSections } from "~/site/sections.server";
import type { Route } from "./+types/root";
import { AlertDialog } from "~/ui/dialog";
import { ErrorPage } from "~/error-page";
import { SiteFooter } from "~/site/components/site-footer";
import { SiteHeader } from "~/site/components/site-header";
import { LightModeOffer } from "~/site/components/light-mode-offer";
import { site } from "~/site/copy/site";
import { MESSAGES } from "~/messages";
import "~/offline-queues";
import { currentYear, knowZoneRules, zoneRules } from "~/kernel/time";
import { homeSectionsShown, socialLinks } from "~/site/sections";
import { useNonce } from "~/kernel/nonce";
import { pressHeldButtons } from "~/kernel/held-buttons";
import { cookieSettings, takeFlash } from "~/flash.server";
import { CARD_SIZE, pageCard } from "~/site/link-preview";
import { isLightRequest } from "~/site/light-mode";
import { useWithoutScripts } from "~/ui/light";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  const flash = takeFlash(request, cookieSettings(context).secure);
  const light = isLightRequest(request.headers.get("Cookie"), request.headers.get("Save-Data"));
  const year = currentYear(context.config.siteTimezone);
  const [content, demo] = await Promise.all([
    loadSiteSections(context.db),
    loadDemoSections(context.db),
  ]);
  return data(
    {
      user: user
        ? {
            nombreCompleto: user.nombreCompleto,
            displayName: user.displayName,
            photoURL: photoOf(user),
            isAdmin: user.isAdmin,
            // Their roles, so that the menu and every page ask the capability table (`may`) the
            // same question the server asks (decision 071).
            grants: user.grants.map(({ kind, eventId, categoryId }) => ({
              kind,
              eventId,
              categoryId: categoryId ?? null,
            })),
          }
        : null,
      // Each message taken gets its own id: the dialog shows once per message, not once per
      // location (a refused form keeps the root's data, and with it an earlier message).
      flash: flash.key ? { id: crypto.randomUUID(), message: MESSAGES[flash.key] } : null,
      year,
      light,
      // The zone's offsets, so that the browser writes dates without Intl (app/kernel/time.ts).
      zone: zoneRules(context.config.siteTimezone),
      publicUrl: context.config.publicUrl.origin,
      social: socialLinks(content.social),
      socialDemo: demo.includes("social"),
      homeSections: homeSectionsShown(content),
    },
    flash.setCookie ? { headers: { "Set-Cookie": flash.setCookie } } : undefined,
  );
}

type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

export function meta() {
  return [{ title: site.name }, { name: "description", content: site.description }];
}

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRootData();
  const leaf = useMatches().at(-1);
  const card = pageCard(leaf);
  // Before any route below formats a date.
  knowZoneRules(rootData?.zone);
  const light = rootData?.light ?? false;
  // Light mode sends a page that works without scripts with none at all (decision 049).
  const scripts = !useWithoutScripts();
  useEffect(pressHeldButtons, []);
  return (
    <html lang="es" data-liviano={light ? "" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b1020" />
        <Meta />
        {rootData ? (
          <>
            {/* The link preview's picture (decision 046): the page's card, or the site's. */}
            <meta property="og:site_name" content={site.name} />
            <meta property="og:image" content={`${rootData.publicUrl}${card}`} />
            <meta property="og:image:type" content="image/jpeg" />
            <meta property="og:image:width" content={String(CARD_SIZE.width)} />
            <meta property="og:image:height" content={String(CARD_SIZE.height)} />
            <meta name="twitter:card" content="summary_large_image" />
          </>
        ) : null}
        {light ? null : (
          // Fetched with the stylesheet rather than after it (styles/base.css); light mode
          // writes in the phone's own font (tokens.css).
          <link
            rel="preload"
            href={fontLatin}
            as="font"
            type="font/woff2"
            crossOrigin="anonymous"
          />
        )}
        <Links nonce={nonce} />
      </head>
      <body>
        <a className="skip-link" href="#contenido">
          Saltar al contenido
        </a>
        <SiteHeader
          light={light}
          scripts={scripts}
          user={rootData?.user ?? null}
          sections={rootData?.homeSections ?? ["hero", "events", "articles", "featured"]}
        />
        <main id="contenido" tabIndex={-1}>
          {children}
        </main>
        {/* Offered on a slow connection (decision 077); a light page is light already. */}
        {scripts && !light ? <LightModeOffer /> : null}
        <SiteFooter
          year={rootData?.year ?? new Date().getFullYear()}
          social={rootData?.social ?? []}
          socialDemo={rootData?.socialDemo ?? false}
        />
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  const { flash } = useLoaderData<typeof loader>();
  const loading = useNavigation().state === "loading";
  return (
    <>
      <div
        className={loading ? "loading-bar active" : "loading-bar"}
        role="status"
        aria-live="polite"
      >
        {loading ? <span className="visually-hidden">Cargando...</span> : null}
      </div>
      <Outlet />
      {flash ? <AlertDialog key={flash.id} message={flash.message} /> : null}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
