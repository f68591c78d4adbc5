// The competition page's fixed words (/events, §2 "Competition landing page"). The edition, date,
// events, benefits, store, venue and logos are edited at /admin/sitio (defaults:
// app/site/copy/section-defaults.ts); app/routes/landing/events.tsx lays them out.

export const competition = {
  /** §9: the loading logo shows for this long (not at all under reduced motion). */
  loadingMs: 1000,
  loadingLogo: "/logo.svg",
  eventsTitle: "Eventos",
  pendingLabel: "Pendiente",
  storeButtonLabel: "Tienda",
  /** The store card without a shop's address yet. */
  storeSoonLabel: "Próximamente",
  venueTitle: "Sede",
  showMapLabel: "Mostrar el mapa",
  openMapLabel: "Abrir en Google Maps",
  benefitsTitle: "Beneficios",
  sponsorsTitle: "Patrocinadores",
  alliesTitle: "Aliados",
  /** The headline competition's page: to register while it comes, to its results once over. */
  registerLabel: "Ver categorías e inscripción",
  resultsLabel: "Ver resultados",
};

/** 'Ubicación: …' and the map's title, from the venue's address. */
export function venueLabels(location: string) {
  return { locationLabel: `Ubicación: ${location}`, mapTitle: `Mapa de la sede: ${location}` };
}

/** The Google Maps address of the venue: the embed and the plain link. */
export function venueMapUrls(location: string) {
  const q = encodeURIComponent(location);
  return {
    embed: `https://www.google.com/maps?q=${q}&output=embed`,
    link: `https://www.google.com/maps?q=${q}`,
  };
}
