import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

// The production compose files, checked against the Compose Specification's JSON schema (the copy
// dclint ships, the schema Docker Compose v2 validates with; its `$schema` names draft-07 by an
// https address Ajv does not know, so the schema itself is not re-validated), and against what
// `./ayllu` relies on.
const root = path.resolve(import.meta.dirname, "../..");
const schema = JSON.parse(
  readFileSync(path.join(root, "node_modules/dclint/schemas/compose.schema.json"), "utf8"),
) as object;
const validate = new Ajv({ allErrors: true, strict: false, validateSchema: false }).compile(schema);

type Service = {
  image?: string;
  restart?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
};
type ComposeFile = {
  services: { site: Service; caddy: Service; db: Service };
  volumes: Record<string, unknown>;
};

function load(file: string): ComposeFile {
  return parse(readFileSync(path.join(root, file), "utf8")) as ComposeFile;
}

function schemaErrors(document: unknown): string[] {
  return validate(document)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
}

describe("compose files", () => {
  it.each(["compose.yaml", "compose.pequeno.yaml"])("%s is valid Compose v2", (file) => {
    expect(schemaErrors(load(file))).toEqual([]);
  });

  it("the schema check fails on a mistake", () => {
    const broken = load("compose.yaml");
    (broken.services.site as Record<string, unknown>).restart_policy = "always";
    (broken.services.db.depends_on as unknown) = { site: { condition: "when_ready" } };
    expect(schemaErrors(broken).length).toBeGreaterThanOrEqual(2);
  });

  it("the site waits for a healthy PostgreSQL, behind exactly one proxy", () => {
    const { services } = load("compose.yaml");
    expect(services.site.depends_on).toEqual({ db: { condition: "service_healthy" } });
    expect(services.db.healthcheck?.test).toContain("pg_isready");
    expect(services.site.environment?.TRUST_PROXY).toBe("1");
    expect(services.site.healthcheck?.test.join(" ")).toContain("/healthz");
  });

  it.each(["compose.yaml", "compose.pequeno.yaml"])(
    "%s: every service restarts `always` (Podman's podman-restart.service brings back only those after a reboot), the site's image is the project's own",
    (file) => {
      const { services } = load(file);
      for (const service of Object.values(services)) expect(service.restart).toBe("always");
      // ./ayllu names the image per project (AYLLU_SITE_IMAGE), so two sites on one server
      // never run each other's.
      expect(services.site.image).toBe("${AYLLU_SITE_IMAGE:-ayllu:latest}");
    },
  );

  it("no secret has a default: each is required from .env", () => {
    const text = readFileSync(path.join(root, "compose.yaml"), "utf8");
    for (const name of ["POSTGRES_PASSWORD", "PUBLIC_URL", "AYLLU_DOMAIN"]) {
      expect(text).toMatch(new RegExp(`\\$\\{${name}:\\?`));
      expect(text).not.toMatch(new RegExp(`\\$\\{${name}:-`));
    }
  });

  it("the small site has no database service, runs one process and has compose.yaml's Caddy", () => {
    const { services, volumes } = load("compose.pequeno.yaml");
    expect(Object.keys(services).sort()).toEqual(["caddy", "site"]);
    expect(services.caddy).toEqual(load("compose.yaml").services.caddy);
    expect(services.site.environment).toMatchObject({
      EMBEDDED_DATABASE: "1",
      WEB_CONCURRENCY: "1",
    });
    expect(services.site.environment?.DATABASE_URL).toBeUndefined();
    // The same volume names as compose.yaml: `./ayllu` copies site_data before an upgrade.
    expect(services.site.volumes).toEqual(load("compose.yaml").services.site.volumes);
    expect(Object.keys(volumes)).not.toContain("db_data");
  });
});
