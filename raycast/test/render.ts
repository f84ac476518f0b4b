import TestRenderer, { act, type ReactTestInstance, type ReactTestRenderer } from "react-test-renderer";
import type { ReactElement } from "react";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// react-test-renderer is deprecated in React 19 but is still the smallest way to get a tree; keep its notice out of the output.
const originalError = console.error;
console.error = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].includes("react-test-renderer is deprecated")) return;
  originalError(...args);
};

export async function render(element: ReactElement): Promise<ReactTestRenderer> {
  let renderer: ReactTestRenderer | undefined;
  await act(async () => {
    renderer = TestRenderer.create(element);
  });
  return renderer as ReactTestRenderer;
}

/** Let effects and promises run until `done` holds (or fail after `timeoutMs`). */
export async function waitFor(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > timeoutMs) throw new Error("waitFor: condition not met in time");
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
}

// the double's host elements are named by string ("List.Item"), which React's element types do not list
export const byType = (root: ReactTestInstance, type: string) => root.findAll((node) => String(node.type) === type);
export const oneOfType = (root: ReactTestInstance, type: string) => root.find((node) => String(node.type) === type);

/** Run an element's onAction inside act. */
export async function press(node: ReactTestInstance): Promise<void> {
  await act(async () => {
    await (node.props.onAction as () => unknown)();
  });
}
