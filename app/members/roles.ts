// Shared by the role forms and the server (decision 064).

/** What a grant form sends as `visto`: its screen showed the member without that role. */
export const ROLE_NOT_SEEN = "sin-rol";
