// What the category editor says after a change (decision 051).
export const COMPETITION_MESSAGES = {
  categoryAdded: "Categoría agregada.",
  categorySaved: "Categoría guardada.",
  categoryMoved: "Orden de las categorías guardado.",
  categoryDeleted: "Categoría eliminada.",
} as const;
