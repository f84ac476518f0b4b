/**
 * A plain answer's output, written whole before the promise resolves: bin/run.cjs ends the process
 * as soon as a plain answer returns, and stdout may still be writing (a pipe, on macOS).
 */
export function writeOutput(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}
