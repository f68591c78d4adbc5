// Who the sign-in provider says a person is: identity is (issuer, subject) from the ID token; the
// e-mail counts only when the provider has verified it (docs/decisions/003-sign-in.md).
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}
