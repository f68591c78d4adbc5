// Member profiles (usuarios): creation at sign-in, additional data, profile edits, admin rights.
import { and, eq, sql } from "drizzle-orm";
import type { ProfileInput } from "~/members/schemas";
import type { Db } from "~/db/client.server";
import { users, type User } from "~/db/schema.server";
import { linkImportedMember, type LinkOptions } from "./account-link.server";
import type { VerifiedIdentity } from "./identity";

export type { VerifiedIdentity };
import { queueMail, recipients } from "~/mail/mail.server";
import { Refusal } from "~/kernel/errors";

function httpUrlOrNull(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Finds or creates the profile of the person the identity provider vouched for. A profile is
 * created once (isAdmin false) and never overwritten by later sign-ins; a verified e-mail listed
 * in ADMIN_EMAILS makes it an admin. A member imported from Firebase is found at their first
 * sign-in (app/members/account-link.server.ts).
 */
export async function signInWithIdentity(
  db: Db,
  identity: VerifiedIdentity,
  adminEmails: readonly string[],
  linkOptions: LinkOptions = { googleSubjects: false },
): Promise<{ user: User; created: boolean }> {
  const [known] = await db
    .select()
    .from(users)
    .where(and(eq(users.issuer, identity.issuer), eq(users.subject, identity.subject)))
    .limit(1);
  const linked = known ? null : await linkImportedMember(db, identity, linkOptions);
  if (known || linked)
    return grantListedAdmin(db, (known ?? linked)!, identity, adminEmails, false);
  const inserted = await db
    .insert(users)
    .values({
      issuer: identity.issuer,
      subject: identity.subject,
      email: identity.email,
      emailVerified: identity.emailVerified,
      displayName: identity.name?.slice(0, 200) || null,
      photoURL: httpUrlOrNull(identity.picture),
      isAdmin: false,
    })
    .onConflictDoNothing({ target: [users.issuer, users.subject] })
    .returning();
  let user = inserted[0];
  const created = user !== undefined;
  if (!user) {
    [user] = await db
      .select()
      .from(users)
      .where(and(eq(users.issuer, identity.issuer), eq(users.subject, identity.subject)))
      .limit(1);
  }
  if (!user) throw new Error("El perfil no se pudo crear ni encontrar");
  return grantListedAdmin(db, user, identity, adminEmails, created);
}

export async function grantListedAdmin(
  db: Db,
  user: User,
  identity: Pick<VerifiedIdentity, "email" | "emailVerified">,
  adminEmails: readonly string[],
  created: boolean,
): Promise<{ user: User; created: boolean }> {
  if (
    !user.isAdmin &&
    identity.emailVerified &&
    adminEmails.includes(identity.email.trim().toLowerCase())
  ) {
    const [promoted] = await db
      .update(users)
      .set({ isAdmin: true })
      .where(eq(users.id, user.id))
      .returning();
    if (promoted) return { user: promoted, created };
  }
  return { user, created };
}

export function hasCompletedProfile(user: Pick<User, "nombreCompleto">): boolean {
  return Boolean(user.nombreCompleto);
}

/** §4: where someone goes after signing in (or on /login while signed in). */
export function pathAfterSignIn(user: Pick<User, "nombreCompleto">, wanted: string | null): string {
  if (!hasCompletedProfile(user)) {
    return wanted && wanted !== "/"
      ? `/aditionaldata?redirectTo=${encodeURIComponent(wanted)}`
      : "/aditionaldata";
  }
  return wanted ?? "/";
}

/** The photo a member is shown with: their own upload, else the provider's (or none). */
export function photoOf(user: Pick<User, "photoURL" | "ownPhotoUrl">): string | null {
  return user.ownPhotoUrl ?? user.photoURL;
}

/**
 * Sets (a path) or removes (null) the member's own photo; they are the only one who may, which
 * the caller has made sure of by acting for the signed-in member. Returns the photo replaced,
 * for the caller to release (releaseReplaced in app/uploads/upload.server.ts).
 */
export async function setOwnPhoto(
  db: Db,
  member: Pick<User, "id">,
  photo: string | null,
): Promise<string | null> {
  const [before] = await db
    .select({ ownPhotoUrl: users.ownPhotoUrl })
    .from(users)
    .where(eq(users.id, member.id));
  await db
    .update(users)
    .set({ ownPhotoUrl: photo, updatedAt: new Date() })
    .where(eq(users.id, member.id));
  return before?.ownPhotoUrl && before.ownPhotoUrl !== photo ? before.ownPhotoUrl : null;
}

/**
 * 'Datos adicionales': saves the profile fields and, the first time the profile becomes complete,
 * queues the welcome mail in the same transaction.
 */
export async function completeProfile(db: Db, userId: string, input: ProfileInput): Promise<User> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ nombreCompleto: users.nombreCompleto })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    const user = await saveProfile(tx, userId, input);
    if (before && !hasCompletedProfile(before))
      await queueMail(tx, "welcome", recipients.members([userId]));
    return user;
  });
}

/** Saves the profile fields (additional data or a profile edit) of `userId`. */
export async function saveProfile(db: Db, userId: string, input: ProfileInput): Promise<User> {
  const [user] = await db
    .update(users)
    .set({
      nombreCompleto: input.nombreCompleto,
      fechaNacimiento: input.fechaNacimiento,
      pais: input.pais,
      ciudad: input.ciudad,
      genero: input.genero,
      habilidades: input.habilidades,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId))
    .returning();
  if (!user) throw new Error("El perfil no existe");
  return user;
}

export class UnknownEmailError extends Refusal {
  override name = "UnknownEmailError";
  constructor(message: string) {
    super(message, 404);
  }
}

/** Grants or revokes admin for every account with this e-mail (command line). */
export async function setAdminByEmail(db: Db, email: string, isAdmin: boolean): Promise<User[]> {
  const normalized = email.trim().toLowerCase();
  const updated = await db
    .update(users)
    .set({ isAdmin })
    .where(sql`lower(${users.email}) = ${normalized}`)
    .returning();
  if (updated.length === 0) {
    throw new UnknownEmailError(
      `No hay ningún usuario con el correo ${normalized}. La persona debe iniciar sesión una vez antes.`,
    );
  }
  return updated;
}
