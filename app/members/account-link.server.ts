// Members brought over from Firebase (npm run import) become themselves again at their first
// sign-in: by the Google account their Firebase Auth user had, then by verified e-mail. Nobody may
// ever get another person's account, so every doubtful case creates a new, empty member instead.
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users, type User } from "~/db/schema.server";
import type { VerifiedIdentity } from "./identity";

/** The issuer of an imported member who has not signed in yet; their subject is the Firebase uid. */
export const IMPORTED_ISSUER = "urn:ayllu:firebase";

export const GOOGLE_ISSUER = "https://accounts.google.com";

export interface LinkOptions {
  /**
   * True when the provider's subjects are Google's: Google itself, and the development provider,
   * which stands in for Google on a laptop (its button says 'Iniciar Sesión con Google').
   */
  googleSubjects: boolean;
}

export function linkOptionsFor(
  oidc: { kind: "development" } | { kind: "external"; issuer: string },
): LinkOptions {
  return { googleSubjects: oidc.kind === "development" || oidc.issuer === GOOGLE_ISSUER };
}

/** The imported member this identity is, now bound to it; or null. */
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
      .where(and(where, eq(users.issuer, IMPORTED_ISSUER)))
      .returning();

  if (options.googleSubjects) {
    const [bySubject] = await bind(eq(users.firebaseGoogleSubject, identity.subject));
    if (bySubject) return bySubject;
  }
  if (!identity.emailVerified) return null;
  const email = identity.email.trim().toLowerCase();
  if (!email) return null;
  // Every imported member with this e-mail, signed in or not: two of them link by subject only.
  const candidates = await db
    .select({ id: users.id, issuer: users.issuer, googleSubject: users.firebaseGoogleSubject })
    .from(users)
    .where(and(isNotNull(users.firebaseUid), sql`lower(trim(${users.email})) = ${email}`))
    .limit(2);
  if (candidates.length !== 1) return null;
  const [candidate] = candidates;
  // With Google, a member whose Google account is known is that account and no other.
  if (options.googleSubjects && candidate!.googleSubject) return null;
  const [byEmail] = await bind(eq(users.id, candidate!.id));
  return byEmail ?? null;
}
