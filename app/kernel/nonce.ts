import { createContext, useContext } from "react";

/** The Content-Security-Policy nonce of the page being rendered (empty in the browser). */
export const NonceContext = createContext<string>("");

export function useNonce(): string {
  return useContext(NonceContext);
}
