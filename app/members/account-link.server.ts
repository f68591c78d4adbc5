// Members brought over from Firebase (npm run import) become themselves again at their first
// sign-in: by the Google account their Firebase Auth user had, then by verified e-mail. Nobody may
// ever get another person's account, so every doubtful case creates a new, empty member instead.
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users, type User } from "~/db/schema.server";
import type { VerifiedIdentity } from "./identity";

/** The issuer of an imported member who has not signed in yet; their subject is the Firebase uid. */
export const IMPORTED_ISSUER = "urn:ayllu:firebase";

export const GOOGLE_ISSUER = "https://accounts.google.com";

/**
 * The issuer of a member who came in by an e-mailed link and has signed in with no provider yet;
 * their subject is their address, trimmed and in lower case (docs/decisions/034-sign-in-by-link.md).
 */
export const EMAIL_ISSUER = "urn:ayllu:email";

/** An address as accounts are matched by it: trimmed, in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The SQL test of "this account's e-mail is `email`" (already normalized). */
const emailIs = (email: string) => sql`lower(trim(${users.email})) = ${email}`;

/**
 * The accounts an address proven by an e-mailed link reaches (at most two are looked for): the
 * account whose e-mail a provider verified, and the imported member whose imported e-mail it is.
 * One is that person's account; two mean the address is shared, and the link reaches neither.
 */
export async function accountsOfProvenEmail(db: Db, email: string): Promise<User[]> {
  const normalized = normalizeEmail(email);
  if (!normalized) return [];
  return db
    .select()
    .from(users)
    .where(
      and(
        emailIs(normalized),
        or(
          eq(users.emailVerified, true),
          isNotNull(users.firebaseUid),
          eq(users.issuer, EMAIL_ISSUER),
        ),
      ),
    )
    .orderBy(users.createdAt)
    .limit(2);
}

export interface LinkOptions {
  /**
   * True when the provider's subjects are Google's: Google itself, and the development provider,
   * which stands in for Google on a laptop (its button says 'Iniciar Sesión con Google').
   */
  googleSubjects: boolean;
}

export function linkOptionsFor(
  oidc: { kind: "development" } | { kind: "none" } | { kind: "external"; issuer: string },
): LinkOptions {
  return {
    googleSubjects:
      oidc.kind === "development" || (oidc.kind === "external" && oidc.issuer === GOOGLE_ISSUER),
  };
}

/**
 * The imported member this identity is, or the member who so far came in only by e-mailed links
 * with this verified e-mail, now bound to it; or null.
 */
export async function linkImportedMember(
  db: Db,
  identity: VerifiedIdentity,
  options: LinkOptions,
): Promise<User | null> {
  const bind = (where: ReturnType<typeof and>) =>
    db
      .update(users)
      .set({
        issuer: identity.issuer,
        subject: identity.subject,
        emailVerified: identity.emailVerified,
      })
      // The issuer check makes a second, simultaneous sign-in find nothing left to bind.
      .where(and(where, inArray(users.issuer, [IMPORTED_ISSUER, EMAIL_ISSUER])))
      .returning();

  if (options.googleSubjects) {
    const [bySubject] = await bind(eq(users.firebaseGoogleSubject, identity.subject));
    if (bySubject) return bySubject;
  }
  if (!identity.emailVerified) return null;
  const email = normalizeEmail(identity.email);
  if (!email) return null;
  // Every imported member with this e-mail, signed in or not, and every member who came in by an
  // e-mailed link to it: two of them link by subject only.
  const candidates = await db
    .select({ id: users.id, issuer: users.issuer, googleSubject: users.firebaseGoogleSubject })
    .from(users)
    .where(and(or(isNotNull(users.firebaseUid), eq(users.issuer, EMAIL_ISSUER)), emailIs(email)))
    .limit(2);
  if (candidates.length !== 1) return null;
  const [candidate] = candidates;
  // With Google, a member whose Google account is known is that account and no other.
  if (options.googleSubjects && candidate!.googleSubject) return null;
  const [byEmail] = await bind(eq(users.id, candidate!.id));
  return byEmail ?? null;
}
