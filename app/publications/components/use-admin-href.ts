import { useLocation } from "react-router";

/** The publications admin's address with some query parameters changed (null removes one). */
export function useAdminHref(): (changes: Record<string, string | null>) => string {
  const location = useLocation();
  return (changes) => {
    const params = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    const search = params.toString();
    return `/projectsandnotes${search ? `?${search}` : ""}`;
  };
}
