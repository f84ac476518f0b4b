import { arch, hostname, release, type } from "node:os";

/** The machine a request may have to describe (some vendor APIs expect their CLI's device headers). */
export function hostDevice(): { name: string; os: string; release: string; arch: string } {
  return { name: hostname(), os: type(), release: release(), arch: arch() };
}
