// What every loader and action receives besides the request (React Router's load context).
import type { Config } from "../config.server";
import type { AuthService } from "../auth/oidc.server";
import type { Db } from "../db/client.server";

export interface AppLoadContextValue {
  db: Db;
  config: Config;
  auth: AuthService;
  /** The Content-Security-Policy nonce of this response. */
  cspNonce: string;
}

declare module "react-router" {
  interface AppLoadContext extends AppLoadContextValue {}
}
