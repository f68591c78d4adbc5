// The route table. It reads like the specification's (§2) and PRODUCT.md's.
import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/landing/home.tsx", { id: "home" }),
  route("inicio", "routes/landing/home.tsx", { id: "inicio" }),
  route("events", "routes/landing/events.tsx"),
  route("clase1", "routes/landing/clase1.tsx"),

  route("login", "routes/auth/login.tsx"),
  route("auth/callback", "routes/auth/callback.tsx"),
  route("logout", "routes/auth/logout.tsx"),

  route("aditionaldata", "routes/profile/additional-data.tsx"),
  route("profile", "routes/profile/profile.tsx"),

  route("*", "routes/system/not-found.tsx"),
] satisfies RouteConfig;
