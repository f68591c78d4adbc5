// The route table. It reads like the specification's (§2) and PRODUCT.md's.
import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/landing/home.tsx", { id: "home" }),
  route("inicio", "routes/landing/home.tsx", { id: "inicio" }),
  route("events", "routes/landing/events.tsx"),
  route("clase1", "routes/landing/clase1.tsx"),

  route("login", "routes/auth/login.tsx"),
  route("login/correo", "routes/auth/email-link-request.tsx"),
  route("login/enlace/:token", "routes/auth/email-link.tsx"),
  route("login/consola/:token", "routes/auth/console-link.tsx"),
  route("auth/callback", "routes/auth/callback.tsx"),
  route("logout", "routes/auth/logout.tsx"),
  // 'Cerrar Sesión' from a page without scripts (light mode): asks the phone first, then posts.
  route("cerrar-sesion", "routes/auth/sign-out.tsx"),

  route("aditionaldata", "routes/profile/additional-data.tsx"),
  route("profile", "routes/profile/profile.tsx"),
  route("profile/datos", "routes/profile/data.ts"),
  // A member's passes, also without a connection (decision 050): the page, its manifest and the
  // service worker that keeps it on the phone
  route("mis-entradas", "routes/profile/passes.tsx"),
  route("mis-entradas.webmanifest", "routes/profile/passes-manifest.ts"),
  route("mis-entradas/sw.js", "routes/system/offline-worker.ts", { id: "worker-passes" }),

  // Events
  route("eventos", "routes/events/list.tsx"),
  route("eventos.ics", "routes/events/feed.ts"),
  route("calendario/:token/eventos.ics", "routes/events/private-feed.ts"),
  route("detalles/:eventId", "routes/events/detail.tsx"),
  route("detalles/:eventId/calendario.ics", "routes/events/calendar.ts"),
  route("detalles/:eventId/certificado.pdf", "routes/certificates/download.ts", {
    id: "certificate-own",
  }),
  // A competitor's certificate by place, once the category's results are final (decision 060)
  route(
    "detalles/:eventId/categorias/:categoryId/certificado.pdf",
    "routes/certificates/download.ts",
    {
      id: "certificate-award-own",
    },
  ),
  route("certificados/:code", "routes/certificates/verify.tsx"),
  // Teams register themselves in a competition's categories (decision 052)
  route("equipos/nuevo", "routes/competitions/team-new.tsx"),
  route("equipos/unirse/:code?", "routes/competitions/join.tsx"),
  route("equipos/:teamId", "routes/competitions/team.tsx"),
  route("admin", "routes/admin/panel.tsx"),
  route("admin/sitio", "routes/admin/site.tsx"),
  route("admin/auditoria", "routes/admin/audit.tsx"),
  route("admin/auditoria.csv", "routes/admin/audit-csv.ts"),
  route("admin/eventos/:eventId/:seccion?", "routes/admin/event-manage.tsx"),
  route("admin/diagnostico", "routes/admin/diagnostics.tsx"),
  // A competition's categories (decision 051)
  route("admin/eventos/:eventId/categorias", "routes/admin/competition.tsx"),
  // A competition's teams (decision 052): the organisers' list and its CSV
  route("admin/eventos/:eventId/equipos", "routes/admin/teams.tsx"),
  route("admin/eventos/:eventId/equipos.csv", "routes/admin/teams-csv.ts"),
  // The door of a competition (decision 055): teams checked in, robots inspected
  route("admin/eventos/:eventId/inspeccion", "routes/admin/inspection.tsx"),
  // One category on competition day, for its organisers (decision 060)
  route("admin/eventos/:eventId/categorias/:categoryId/resultados", "routes/admin/judging.tsx"),
  route(
    "admin/eventos/:eventId/categorias/:categoryId/certificados/:userId/certificado.pdf",
    "routes/certificates/download.ts",
    { id: "certificate-award-admin" },
  ),
  route("admin/escuelas", "routes/admin/schools.tsx"),
  route("admin/eventos/:eventId/participantes", "routes/admin/participants.tsx"),
  route("admin/eventos/:eventId/participantes.csv", "routes/admin/participants-csv.ts"),
  route("admin/eventos/:eventId/registro", "routes/admin/check-in.tsx"),
  route("admin/eventos/:eventId/registro/datos", "routes/admin/check-in-data.ts"),
  route("admin/eventos/:eventId/registro.webmanifest", "routes/admin/check-in-manifest.ts"),
  route("registro-sw.js", "routes/system/offline-worker.ts", { id: "worker-check-in" }),
  // A judge's screen (decision 059): results entered on a phone, also without a connection — the
  // page, its data for the phone's queue, its manifest and its service worker
  route("admin/eventos/:eventId/jurado/:categoryId", "routes/competitions/judge.tsx"),
  route("admin/eventos/:eventId/jurado/:categoryId/datos", "routes/competitions/judge-data.ts"),
  route(
    "admin/eventos/:eventId/jurado/:categoryId/app.webmanifest",
    "routes/competitions/judge-manifest.ts",
  ),
  route("jurado-sw.js", "routes/system/offline-worker.ts", { id: "worker-judge" }),
  // A door-staff link: opens that event's check-in on any phone, without an account
  route("puerta/:token", "routes/admin/staff-link.tsx"),
  route(
    "admin/eventos/:eventId/participantes/:userId/certificado.pdf",
    "routes/certificates/download.ts",
    { id: "certificate-admin" },
  ),

  // Payments (decision 048): the treasurer's page and the bank's QR
  route("tesoreria", "routes/payments/treasury.tsx"),
  route("tesoreria/pagos", "routes/payments/queue.tsx"),
  route("tesoreria/pagos.csv", "routes/payments/queue-csv.ts"),
  route("pago/qr.png", "routes/payments/qr.ts"),
  route("detalles/:eventId/pago", "routes/payments/pay.tsx"),
  route("detalles/:eventId/resultados", "routes/competitions/results.tsx"),
  route("detalles/:eventId/resultados/pantalla", "routes/competitions/projector.tsx"),
  route("pagos/:paymentId/comprobante", "routes/payments/receipt.ts"),

  // Publications: notes, resources, projects
  route("projectsandnotes", "routes/publications/admin.tsx"),
  route("projectsandnotes/listas", "routes/publications/admin-lists.ts"),
  route("notas", "routes/publications/notes.tsx"),
  route("notas/:id", "routes/publications/note.tsx"),
  route("recursos", "routes/publications/resources.tsx"),
  route("recursos/:id", "routes/publications/resource.tsx"),
  route("proyectos", "routes/publications/projects.tsx"),
  route("proyectos/:id", "routes/publications/project.tsx"),

  // Uploaded images (files are served from UPLOADS_DIR under /imagenes, not by a route)
  route("subidas", "routes/uploads/upload.ts"),
  // Mail: the unsubscribe link of every mail, and the development mailbox (not in production)
  route("correo/baja/:token/:tema", "routes/mail/unsubscribe.tsx"),
  route("__dev/correo", "routes/mail/dev-mailbox.tsx"),
  route("__dev/correo/:mailId", "routes/mail/dev-mail.ts"),

  // Feeds for readers and search engines
  route("notas/rss.xml", "routes/feeds/rss.ts"),
  route("sitemap.xml", "routes/feeds/sitemap.ts"),
  route("robots.txt", "routes/feeds/robots.ts"),
  // The picture of a page's link preview (WhatsApp, Telegram…): an item's card, or the site's
  route("og/:kind/:id?", "routes/feeds/link-card.ts"),

  // 'Modo liviano' (decision 049): the top menu's switch (decision 077)
  route("liviano", "routes/system/light-mode.ts"),

  route("*", "routes/system/not-found.tsx"),
] satisfies RouteConfig;
