import { readFile } from "node:fs/promises";

/**
 * The page `quotabar serve` shows at `/`: files shipped in the package (dist/oclif-cli/serve/page/,
 * where scripts/build.mjs bundles page.ts into page.js beside the HTML and CSS), read once and kept.
 * Only these names are served: a path never reaches the file system.
 */
const PAGE_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/page.css": { file: "page.css", type: "text/css; charset=utf-8" },
  "/page.js": { file: "page.js", type: "text/javascript; charset=utf-8" },
  "/favicon.svg": { file: "favicon.svg", type: "image/svg+xml" },
};

export interface PageFile {
  body: Buffer;
  type: string;
}

const read = new Map<string, Promise<PageFile | null>>();

/** Whether `pathname` is one of the page's files. */
export function isPageFile(pathname: string): boolean {
  return Object.hasOwn(PAGE_FILES, pathname);
}

/** The file for `pathname` (one of isPageFile's); null where it is not there (a checkout not built: page.js is made by the build). */
export function pageFile(pathname: string): Promise<PageFile | null> {
  const { file, type } = PAGE_FILES[pathname] as { file: string; type: string };
  let found = read.get(file);
  if (!found) {
    found = readFile(new URL(`page/${file}`, import.meta.url)).then(
      (body) => ({ body, type }),
      () => {
        read.delete(file); // tried again next time
        return null;
      },
    );
    read.set(file, found);
  }
  return found;
}
