/** A URL or path without its trailing slashes (a loop, not a pattern: "////…x" stays linear). */
export function trimTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === "/") end--;
  return text.slice(0, end);
}
