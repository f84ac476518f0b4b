/**
 * Two texts in code-point order: what sorts ids, dates, model and profile names here. Not
 * localeCompare, which loads ICU's collation data (~2.5 MiB) into every run that sorts.
 */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
