// What every loader and action receives besides the request (React Router's load context).
import type { Config } from "~/kernel/config.server";
import type { AuthService } from "~/members/oidc.server";
import type { SignInMailer } from "~/mail/sign-in-mail.server";
import type { Db } from "~/db/client.server";
import type { DecodeQueue } from "~/uploads/decode-queue.server";
import type { Encoding } from "~/kernel/encoding.server";
import type { DiagnosticProbe, RequestSeen } from "~/kernel/diagnostics";

interface AppLoadContextValue {
  db: Db;
  config: Config;
  /** Sign-in with the OpenID provider; null when the site has none (links by e-mail only). */
  auth: AuthService | null;
  /** Sends sign-in links by e-mail; null without SMTP (outside production the page shows the link). */
  signInMailer: SignInMailer | null;
  /** The client's address as the rate limits key it (Express's req.ip, TRUST_PROXY applied). */
  clientAddress: string;
  /** This request's addresses and forwarding headers as the server saw them (Diagnóstico). */
  requestSeen: () => RequestSeen;
  /** Diagnóstico's probes of the host's own parts (the backups' folder), run with the app's. */
  hostProbes: DiagnosticProbe[];
  /** The server's clock: "now" for every rule that changes with time (StartOptions.now). */
  now: () => Date;
  /** This process's line for decoding uploaded images (docs/decisions/028-image-decoding-bound.md). */
  decodeQueue: DecodeQueue;
  /**
   * Marks this answer as one person's: the page cache never keeps it (decision 054). Every session
   * lookup calls it (getUser), so a render that read a session cannot be kept, whatever cookies
   * the request seemed to have.
   */
  personal: () => void;
  /** The Content-Security-Policy nonce of this response. */
  cspNonce: string;
  /**
   * How entry.server.tsx compresses the document: what the client accepts, or identity when the
   * page cache keeps it (it compresses its own copies) and under Vite.
   */
  documentEncoding: Encoding;
}

declare module "react-router" {
  // Declaration merging needs an interface; it adds nothing of its own.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppLoadContextValue {}
}
