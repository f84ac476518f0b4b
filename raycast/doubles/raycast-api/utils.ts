/**
 * Test double of `@raycast/utils`: `usePromise` / `useCachedPromise` with the state machine the
 * commands rely on (isLoading, data, revalidate, execute, onError, a new run when the arguments
 * change), a `getProgressIcon` drawing the same ring as the real one, and a recorded `showFailureToast`.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { environment, raycastCalls } from "./api.js";

interface PromiseOptions<T> {
  execute?: boolean;
  initialData?: T;
  keepPreviousData?: boolean;
  onData?: (data: T) => void;
  onError?: (error: Error) => void;
}

export function usePromise<T, A extends unknown[]>(fn: (...args: A) => Promise<T>, args?: A, options: PromiseOptions<T> = {}) {
  const [state, setState] = useState<{ isLoading: boolean; data: T | undefined; error: Error | undefined }>({
    isLoading: options.execute !== false,
    data: options.initialData,
    error: undefined,
  });
  const latest = useRef({ fn, args, options });
  latest.current = { fn, args, options };

  const revalidate = useCallback(async (): Promise<T | undefined> => {
    setState((s) => ({ ...s, isLoading: true }));
    const { fn: current, args: currentArgs, options: currentOptions } = latest.current;
    try {
      const data = await current(...((currentArgs ?? []) as A));
      setState({ isLoading: false, data, error: undefined });
      currentOptions.onData?.(data);
      return data;
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      setState((s) => ({ ...s, isLoading: false, error }));
      if (currentOptions.onError) currentOptions.onError(error);
      else await showFailureToast(error);
      return undefined;
    }
  }, []);

  // as the real hook: runs on mount, and again whenever the arguments change (compared by value)
  const argsKey = JSON.stringify(args ?? []);
  useEffect(() => {
    if (latest.current.options.execute !== false) void revalidate();
  }, [revalidate, argsKey]);

  return { ...state, revalidate, mutate: revalidate };
}

export const useCachedPromise = usePromise;

export async function showFailureToast(error: unknown, options?: { title?: string }): Promise<void> {
  raycastCalls.push({ name: "showFailureToast", args: [error instanceof Error ? error.message : String(error), options] });
}

/** The ring of `@raycast/utils` (same geometry), so the preview looks like Raycast. */
export function getProgressIcon(
  progress: number,
  color = "raycast-red",
  options?: { background?: string; backgroundOpacity?: number },
): string {
  const background = options?.background ?? (environment.appearance === "light" ? "black" : "white");
  const backgroundOpacity = options?.backgroundOpacity ?? 0.1;
  const stroke = 10;
  const radius = 50 - 5 - stroke / 2;
  const arc =
    progress > 0 && progress < 1
      ? `<path d="${describeArc(50, 50, radius, 0, progress * 360)}" stroke="${color}" stroke-width="${stroke}" fill="none" />`
      : "";
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="100px" height="100px">` +
    `<circle cx="50" cy="50" r="${radius}" stroke-width="${stroke}" stroke="${progress < 1 ? background : color}" opacity="${progress < 1 ? backgroundOpacity : "1"}" fill="none" />` +
    `${arc}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function polarToCartesian(cx: number, cy: number, r: number, degrees: number) {
  const radians = ((degrees - 90) * Math.PI) / 180;
  return { x: cx + r * Math.cos(radians), y: cy + r * Math.sin(radians) };
}

function describeArc(x: number, y: number, radius: number, startAngle: number, endAngle: number): string {
  const start = polarToCartesian(x, y, radius, endAngle);
  const end = polarToCartesian(x, y, radius, startAngle);
  const largeArc = endAngle - startAngle <= 180 ? "0" : "1";
  return ["M", start.x, start.y, "A", radius, radius, 0, largeArc, 0, end.x, end.y].join(" ");
}
