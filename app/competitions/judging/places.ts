// Places from an ordered list with ties, as sports tables give them: two teams tied for first are
// both 1st and the next is 3rd ("1, 1, 3").

export interface Placed<T> {
  place: number;
  entry: T;
}

/** `sorted` best first; `tied(a, b)` says whether two neighbours share a place. */
export function placesOf<T>(sorted: readonly T[], tied: (a: T, b: T) => boolean): Placed<T>[] {
  const placed: Placed<T>[] = [];
  sorted.forEach((entry, index) => {
    const previous = placed[index - 1];
    const place = previous && tied(previous.entry, entry) ? previous.place : index + 1;
    placed.push({ place, entry });
  });
  return placed;
}

/** Compares two lists of numbers element by element (a missing element is worse, i.e. larger). */
export function compareLists(a: readonly number[], b: readonly number[], lowerIsBetter: boolean) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return 1;
    if (y === undefined) return -1;
    return lowerIsBetter ? x - y : y - x;
  }
  return 0;
}
