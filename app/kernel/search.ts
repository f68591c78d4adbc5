/** The longest search the admin lists use; anything longer is cut to it. */
export const SEARCH_MAX = 100;

/** The search as it is used and shown again: trimmed and at most SEARCH_MAX characters. */
export function boundedSearch(value: string | null | undefined): string {
  return [...(value ?? "").trim()].slice(0, SEARCH_MAX).join("");
}

/** A LIKE pattern matching `term` anywhere, case-folded, with LIKE's own characters escaped. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A page number as typed in an address: 1 for anything that is not a whole number from 1 up; a
 * huge one stays huge (the list then gives its last page).
 */
export function pageNumber(value: string | null): number {
  return value !== null && /^\d+$/.test(value.trim())
    ? Math.min(Math.max(1, Number(value)), 1e9)
    : 1;
}
