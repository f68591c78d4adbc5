import { expect, test } from "vitest";
import { ConfigError, loadConfig } from "~/kernel/config.server";

const SECRET = "s".repeat(32);

/** Everything production needs, with Google as the provider. */
const PRODUCTION = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://ayllu:clave@db.example:5432/ayllu",
  SESSION_SECRET: SECRET,
  PUBLIC_URL: "https://ayllu.example",
  GOOGLE_CLIENT_ID: "cliente.apps.googleusercontent.com",
  GOOGLE_CLIENT_SECRET: "secreto-de-google",
  TRUST_PROXY: "1",
};

/** The message of the ConfigError that loadConfig throws for `env`. */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).name).toBe("ConfigError");
    return (error as Error).message;
  }
  throw new Error("loadConfig aceptó la configuración");
}

function without(env: Record<string, string>, ...names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));
}

test("production refuses to start with no configuration, naming every missing variable", () => {
  const message = refusal({ NODE_ENV: "production" });
  for (const name of ["DATABASE_URL", "SESSION_SECRET", "PUBLIC_URL", "GOOGLE_CLIENT_ID"]) {
    expect(message).toContain(name);
  }
});

test.each(["DATABASE_URL", "SESSION_SECRET", "PUBLIC_URL"])(
  "production without %s refuses to start and names only it",
  (name) => {
    const message = refusal(without(PRODUCTION, name));
    expect(message).toContain(name);
    const others = ["DATABASE_URL", "SESSION_SECRET", "PUBLIC_URL", "GOOGLE_CLIENT_ID"].filter(
      (n) => n !== name,
    );
    for (const other of others) expect(message).not.toContain(other);
  },
);

test("production refuses the development sign-in provider", () => {
  const message = refusal(without(PRODUCTION, "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"));
  expect(message).toContain("GOOGLE_CLIENT_ID");
  expect(message).toContain("OIDC_ISSUER");
  expect(message).toContain("proveedor de desarrollo");
  // The other way in is named too.
  expect(message).toContain("SMTP_URL");
});

test("production with SMTP and no provider signs in by e-mailed links only", () => {
  const config = loadConfig({
    ...without(PRODUCTION, "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"),
    SMTP_URL: "smtp://correo.example:587",
  });
  expect(config.oidc).toEqual({ kind: "none" });
  expect(config.emailLinks).toEqual({ enabled: true, perAddress: 5, perClient: 20 });
});

test("e-mailed links: offered with SMTP or outside production, not in production without SMTP", () => {
  expect(loadConfig(PRODUCTION).emailLinks.enabled).toBe(false);
  expect(
    loadConfig({ ...PRODUCTION, SMTP_URL: "smtps://a:b@correo.example" }).emailLinks.enabled,
  ).toBe(true);
  expect(loadConfig({}).emailLinks.enabled).toBe(true);
  expect(loadConfig({}).oidc).toEqual({ kind: "development" });
  const limits = loadConfig({ EMAIL_LINKS_PER_ADDRESS: "2", EMAIL_LINKS_PER_CLIENT: "50" });
  expect(limits.emailLinks).toMatchObject({ perAddress: 2, perClient: 50 });
  for (const [name, value] of [
    ["EMAIL_LINKS_PER_ADDRESS", "0"],
    ["EMAIL_LINKS_PER_ADDRESS", "muchos"],
    ["EMAIL_LINKS_PER_CLIENT", "1.5"],
    ["EMAIL_LINKS_PER_CLIENT", "5000"],
  ]) {
    expect(refusal({ [name!]: value })).toContain(name);
  }
});

test("a complete production configuration starts with Google, no demo content and a public host", () => {
  const config = loadConfig(PRODUCTION);
  expect(config).toMatchObject({
    production: true,
    databaseUrl: PRODUCTION.DATABASE_URL,
    sessionSecret: SECRET,
    host: "0.0.0.0",
    seedDemo: false,
    oidc: {
      kind: "external",
      issuer: "https://accounts.google.com",
      clientId: PRODUCTION.GOOGLE_CLIENT_ID,
      clientSecret: "secreto-de-google",
    },
  });
  expect(config.publicUrl.toString()).toBe("https://ayllu.example/");
});

test("variables set to an empty string count as unset", () => {
  const message = refusal({ ...PRODUCTION, SESSION_SECRET: "" });
  expect(message).toContain("SESSION_SECRET");
  expect(loadConfig({ GOOGLE_CLIENT_ID: "", GOOGLE_CLIENT_SECRET: "" }).oidc).toEqual({
    kind: "development",
  });
});

test("without a provider outside production the development provider is used", () => {
  const config = loadConfig({});
  expect(config.oidc).toEqual({ kind: "development" });
  expect(config.production).toBe(false);
  expect(config.publicUrl.toString()).toBe("http://localhost:3000/");
  expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
  expect(loadConfig({}).sessionSecret).not.toBe(config.sessionSecret);
});

test("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET select https://accounts.google.com", () => {
  const config = loadConfig({ GOOGLE_CLIENT_ID: "id-google", GOOGLE_CLIENT_SECRET: "secreto" });
  expect(config.oidc).toEqual({
    kind: "external",
    issuer: "https://accounts.google.com",
    clientId: "id-google",
    clientSecret: "secreto",
    name: "Google",
  });
});

test("OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET select another issuer", () => {
  const config = loadConfig({
    OIDC_ISSUER: "https://id.comunidad.example/realms/ayllu",
    OIDC_CLIENT_ID: "ayllu",
    OIDC_CLIENT_SECRET: "secreto",
    OIDC_PROVIDER_NAME: "Keycloak",
  });
  expect(config.oidc).toEqual({
    kind: "external",
    issuer: "https://id.comunidad.example/realms/ayllu",
    clientId: "ayllu",
    clientSecret: "secreto",
    name: "Keycloak",
  });
  const production = loadConfig({
    ...without(PRODUCTION, "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"),
    OIDC_ISSUER: "https://id.comunidad.example",
    OIDC_CLIENT_ID: "ayllu",
    OIDC_CLIENT_SECRET: "secreto",
  });
  expect(production.oidc).toMatchObject({
    kind: "external",
    issuer: "https://id.comunidad.example",
  });
});

test("a half-configured Google provider names the missing half", () => {
  expect(refusal({ GOOGLE_CLIENT_ID: "id-google" })).toContain("GOOGLE_CLIENT_SECRET falta");
  expect(refusal({ GOOGLE_CLIENT_SECRET: "secreto" })).toContain("GOOGLE_CLIENT_ID falta");
});

test("a half-configured OpenID Connect provider names what is missing", () => {
  const onlyIssuer = refusal({ OIDC_ISSUER: "https://id.comunidad.example" });
  expect(onlyIssuer).toContain("OIDC_CLIENT_ID falta");
  expect(onlyIssuer).toContain("OIDC_CLIENT_SECRET falta");
  expect(onlyIssuer).not.toContain("OIDC_ISSUER falta");

  const noIssuer = refusal({ OIDC_CLIENT_ID: "ayllu", OIDC_CLIENT_SECRET: "secreto" });
  expect(noIssuer).toContain("OIDC_ISSUER falta");
  expect(noIssuer).not.toContain("OIDC_CLIENT_ID falta");

  expect(
    refusal({ OIDC_ISSUER: "https://id.comunidad.example", OIDC_CLIENT_ID: "ayllu" }),
  ).toContain("OIDC_CLIENT_SECRET falta");
});

test("a SITE_TIMEZONE that is not a time zone is refused", () => {
  expect(refusal({ SITE_TIMEZONE: "Marte/Olympus_Mons" })).toContain("SITE_TIMEZONE");
  expect(loadConfig({ SITE_TIMEZONE: "America/Santiago" }).siteTimezone).toBe("America/Santiago");
  expect(loadConfig({}).siteTimezone).toBe("America/La_Paz");
});

test("ADMIN_EMAILS is split on commas, trimmed and lower-cased", () => {
  const config = loadConfig({
    ADMIN_EMAILS: " Jefa@Example.COM ,otro@example.com,, ADMIN@Ayllu.Example ",
  });
  expect(config.adminEmails).toEqual([
    "jefa@example.com",
    "otro@example.com",
    "admin@ayllu.example",
  ]);
  expect(loadConfig({}).adminEmails).toEqual([]);
});

test("badly formed values are refused with the variable's name", () => {
  expect(refusal({ SESSION_SECRET: "corto" })).toContain("SESSION_SECRET");
  expect(refusal({ PUBLIC_URL: "javascript:alert(1)" })).toContain("PUBLIC_URL");
  expect(refusal({ DATABASE_URL: "mysql://db.example/ayllu" })).toContain("DATABASE_URL");
  expect(refusal({ PORT: "setenta" })).toContain("PORT");
  expect(refusal({ LOGIN_RATE_LIMIT: "0" })).toContain("LOGIN_RATE_LIMIT");
});

test("PUBLIC_URL is kept as an origin only", () => {
  expect(
    loadConfig({
      PUBLIC_URL: "https://ayllu.example/alguna/ruta?x=1",
      TRUST_PROXY: "1",
    }).publicUrl.toString(),
  ).toBe("https://ayllu.example/");
});

test("an https PUBLIC_URL without TRUST_PROXY refuses to start and names TRUST_PROXY", () => {
  const message = refusal(without(PRODUCTION, "TRUST_PROXY"));
  expect(message).toContain("TRUST_PROXY");
  expect(message).toContain("https");
  expect(refusal({ PUBLIC_URL: "https://ayllu.example" })).toContain("TRUST_PROXY");
  expect(loadConfig({ PUBLIC_URL: "https://ayllu.example", TRUST_PROXY: "1" }).trustProxy).toBe(1);
  expect(loadConfig({ PUBLIC_URL: "http://ayllu.example" }).trustProxy).toBe(false);
});

test("the limits on streams and sessions and the sweep interval are read and checked", () => {
  const defaults = loadConfig({});
  expect(defaults.liveStreamsPerSession).toBe(5);
  expect(defaults.sessionsPerAccount).toBe(10);
  expect(defaults.sessionSweepMs).toBe(60 * 60_000);
  const set = loadConfig({
    LIVE_STREAMS_PER_SESSION: "2",
    SESSIONS_PER_ACCOUNT: "3",
    SESSION_SWEEP_MINUTES: "5",
  });
  expect([set.liveStreamsPerSession, set.sessionsPerAccount, set.sessionSweepMs]).toEqual([
    2, 3, 300_000,
  ]);
  expect(refusal({ LIVE_STREAMS_PER_SESSION: "0" })).toContain("LIVE_STREAMS_PER_SESSION");
  expect(refusal({ SESSIONS_PER_ACCOUNT: "muchas" })).toContain("SESSIONS_PER_ACCOUNT");
});

test("mail: SMTP_URL sends, no SMTP outside production keeps mail in the development mailbox, production without it sends nothing", () => {
  expect(loadConfig({}).mail).toEqual({
    transport: { kind: "mailbox" },
    from: "Ayllu <no-responder@localhost>",
    reminderHours: 24,
    holdReminderHours: 6,
  });
  expect(loadConfig(PRODUCTION).mail.transport).toEqual({ kind: "none" });
  expect(loadConfig(PRODUCTION).mail.from).toBe("Ayllu <no-responder@ayllu.example>");
  const smtp = loadConfig({
    ...PRODUCTION,
    SMTP_URL: "smtp://usuario:clave@correo.example:587",
    MAIL_FROM: "Ayllu <eventos@ayllu.example>",
    REMINDER_HOURS: "48",
    HOLD_REMINDER_HOURS: "12",
  }).mail;
  expect(smtp).toEqual({
    transport: { kind: "smtp", url: "smtp://usuario:clave@correo.example:587" },
    from: "Ayllu <eventos@ayllu.example>",
    reminderHours: 48,
    holdReminderHours: 12,
  });
  expect(refusal({ HOLD_REMINDER_HOURS: "0" })).toContain("HOLD_REMINDER_HOURS");
  expect(refusal({ HOLD_REMINDER_HOURS: "seis" })).toContain("HOLD_REMINDER_HOURS");
});

test.each([
  [{ SMTP_URL: "http://correo.example" }, "SMTP_URL debe ser una URL smtp:// o smtps://"],
  [{ SMTP_URL: "smtp://correo example" }, "SMTP_URL debe ser una URL smtp:// o smtps://"],
  [{ MAIL_FROM: "eventos" }, "MAIL_FROM debe ser una dirección de correo"],
  [{ MAIL_FROM: "a@b.example\r\nBcc: x@y.example" }, "MAIL_FROM debe ser una dirección de correo"],
  [{ REMINDER_HOURS: "0" }, "REMINDER_HOURS debe estar entre 1 y 168"],
  [{ REMINDER_HOURS: "200" }, "REMINDER_HOURS debe estar entre 1 y 168"],
  [{ REMINDER_HOURS: "1.5" }, "REMINDER_HOURS debe ser un número entero de horas"],
  [{ REMINDER_HOURS: "mañana" }, "REMINDER_HOURS debe ser un número entero de horas"],
])("mail settings that cannot work are refused with their name: %o", (env, message) => {
  expect(refusal(env)).toContain(message);
});

// Every whole-number setting refuses a fraction, a word and each side of its range with the same
// two messages (one helper in config.server.ts makes them all).
test.each([
  ["UPLOAD_DECODES", "imágenes", 1, 16],
  ["UPLOAD_QUEUE", "subidas", 0, 100],
  ["UPLOADS_PER_MINUTE", "subidas", 1, 1000],
  ["EMAIL_LINKS_PER_ADDRESS", "enlaces por hora", 1, 100],
  ["EMAIL_LINKS_PER_CLIENT", "enlaces por hora", 1, 1000],
  ["AUDIT_RETENTION_DAYS", "días", 1, 36500],
  ["RECEIPT_RETENTION_DAYS", "días", 1, 36500],
  ["HOLD_REMINDER_HOURS", "horas", 1, 168],
  ["REMINDER_HOURS", "horas", 1, 168],
] as const)("%s is a whole number of %s from %i to %i", (name, unit, min, max) => {
  const notWhole = `${name} debe ser un número entero de ${unit}`;
  const outside = `${name} debe estar entre ${min} y ${max}`;
  expect(refusal({ [name]: "1.5" })).toContain(notWhole);
  expect(refusal({ [name]: "muchos" })).toContain(notWhole);
  expect(refusal({ [name]: String(min - 1) })).toContain(outside);
  expect(refusal({ [name]: String(max + 1) })).toContain(outside);
  expect(() => loadConfig({ [name]: String(max) })).not.toThrow();
});

test("private files (decision 048) go to <DATA_DIR>/privado or PRIVATE_DIR, never inside UPLOADS_DIR", () => {
  const config = loadConfig({ DATA_DIR: "/srv/ayllu" });
  expect(config.privateDir).toBe("/srv/ayllu/privado");
  expect(config.uploadsDir).toBe("/srv/ayllu/uploads");
  expect(loadConfig({ DATA_DIR: "/srv/ayllu", PRIVATE_DIR: "/srv/secreto" }).privateDir).toBe(
    "/srv/secreto",
  );
  for (const inside of ["/srv/ayllu/uploads/privado", "/srv/ayllu/uploads"])
    expect(refusal({ DATA_DIR: "/srv/ayllu", PRIVATE_DIR: inside })).toContain(
      "PRIVATE_DIR está dentro de UPLOADS_DIR",
    );
});
