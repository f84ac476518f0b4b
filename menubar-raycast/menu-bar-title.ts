/**
 * What the menu-bar title says (the "Menu Bar Title" and "Compact Title" preferences): a meter's
 * percent, its pace, both, the time to its reset, when it runs out, or each in turn. Pure and free
 * of `@raycast/*`; times against the `now` passed in.
 */
import type { Meter, ProviderUsage, UsageDocument } from "../domain/usage-document.js";
import { formatCountdown, formatPercent } from "../presentation/format.js";
import { fullestMeter, metersOf } from "../presentation/severity.js";
import { mostAtRisk, paceView } from "../raycast/shared/pace-view.js";

/** The choices of the Menu Bar Title dropdown (raycast/package.json), in its order. */
export const TITLE_MODES = ["percent", "pace", "both", "reset", "runsOut", "rotate"] as const;
export type TitleMode = (typeof TITLE_MODES)[number];
/** What a title shows at one moment (Rotate shows each of these in turn). */
export type ShownMode = Exclude<TitleMode, "rotate">;

/** What Rotate goes through, in this order, skipping what the meter has no data for (Both is Percent and Pace at once). */
export const ROTATION: readonly ShownMode[] = ["percent", "pace", "reset", "runsOut"];
/** The choices of the Rotate Every dropdown, in seconds. Raycast runs the command at most once a minute in the background. */
export const ROTATE_SECONDS = [60, 120, 300, 600] as const;

export interface TitleOptions {
  mode: TitleMode;
  /** Fewer characters: no words, the largest unit of a countdown ("3h", not "resets in 3h 05m"). */
  compact: boolean;
  /** Rotate's step. */
  rotateSeconds: number;
}

export const DEFAULT_TITLE: TitleOptions = { mode: "percent", compact: false, rotateSeconds: 60 };

/** The preferences as Raycast gives them (dropdowns as strings), checked: anything unknown is the default. */
export function titleOptionsOf(preferences: {
  menuBarTitle?: unknown;
  menuBarCompact?: unknown;
  menuBarRotateSeconds?: unknown;
}): TitleOptions {
  const mode = (TITLE_MODES as readonly unknown[]).includes(preferences.menuBarTitle)
    ? (preferences.menuBarTitle as TitleMode)
    : DEFAULT_TITLE.mode;
  const seconds = Number(preferences.menuBarRotateSeconds);
  return {
    mode,
    compact: preferences.menuBarCompact === true,
    rotateSeconds: (ROTATE_SECONDS as readonly number[]).includes(seconds) ? seconds : DEFAULT_TITLE.rotateSeconds,
  };
}

/** The meter a title is about, and its provider. */
export interface Headline {
  usage: ProviderUsage;
  meter: Meter;
}

export interface MenuBarTitle {
  text: string;
  /** What the text shows: the mode asked for, Rotate's current one, or Percent when the meter has no data for it. */
  shown: ShownMode;
  headline: Headline | null;
}

/** The providers the title may follow: the one picked in preferences, else all of them. */
function candidatesOf(document: UsageDocument | undefined, picked: string): ProviderUsage[] {
  const providers = document?.providers ?? [];
  return picked !== "auto" && picked !== "" ? providers.filter((p) => p.id === picked) : providers;
}

/** The fullest meter of the candidates (unlimited ones never count): what Percent and Reset Time follow. */
export function headlineOf(document: UsageDocument | undefined, picked = "auto"): Headline | null {
  let best: Headline | null = null;
  for (const usage of candidatesOf(document, picked)) {
    const meter = fullestMeter(usage);
    if (meter && (best === null || (meter.usedPercent as number) > (best.meter.usedPercent as number))) best = { usage, meter };
  }
  return best;
}

/** The candidates' meter most at risk by its pace (runs out soonest, else furthest ahead); null when none has a pace. */
export function pacedHeadlineOf(document: UsageDocument | undefined, picked = "auto"): Headline | null {
  const all = candidatesOf(document, picked).flatMap((usage) => metersOf(usage).map((meter) => ({ usage, meter })));
  return mostAtRisk(all, (h) => h.meter);
}

function hasData(meter: Meter, mode: ShownMode): boolean {
  if (mode === "reset") return meter.resetsAt !== null;
  if (mode === "percent") return true;
  return meter.pace !== null && meter.pace !== undefined;
}

/**
 * The title: Percent and Reset Time follow the fullest meter; Pace, Both and Runs Out the meter most
 * at risk by its pace (the fullest when none has one); Rotate stays on the pace's meter and shows,
 * every `rotateSeconds` of the clock, the next of Percent, Pace, Reset Time and Runs Out it has data
 * for. A mode the meter has no data for shows its percent.
 */
export function menuBarTitle(
  document: UsageDocument | undefined,
  now: Date,
  picked = "auto",
  options: TitleOptions = DEFAULT_TITLE,
): MenuBarTitle {
  const byPace = options.mode !== "percent" && options.mode !== "reset";
  const headline = (byPace ? pacedHeadlineOf(document, picked) : null) ?? headlineOf(document, picked);
  if (!headline) return { text: "", shown: options.mode === "rotate" ? "percent" : options.mode, headline: null };
  let shown: ShownMode;
  if (options.mode === "rotate") {
    const modes = ROTATION.filter((mode) => hasData(headline.meter, mode));
    shown = modes[Math.floor(now.getTime() / (options.rotateSeconds * 1000)) % modes.length] ?? "percent";
  } else shown = hasData(headline.meter, options.mode === "both" ? "pace" : options.mode) ? options.mode : "percent";
  return { text: titleText(headline.meter, shown, now, options.compact), shown, headline };
}

/** "40%", "+11% pace", "40% · +11%", "resets in 3h 05m", "runs out in 1h 40m" (compact: "40%", "+11%", "40% +11%", "3h", "out 1h"). */
function titleText(meter: Meter, mode: ShownMode, now: Date, compact: boolean): string {
  const percent = formatPercent(meter.usedPercent ?? 0);
  const pace = paceView(meter, now);
  if (mode === "pace" && pace) return compact ? pace.short : `${pace.short} pace`;
  if (mode === "both" && pace) return compact ? `${percent} ${pace.short}` : `${percent} · ${pace.short}`;
  if (mode === "runsOut" && pace) {
    if (pace.runsOutIn === null) return compact ? "lasts" : "lasts to reset";
    return compact ? `out ${largestUnit(pace.runsOutIn)}` : `runs out in ${pace.runsOutIn}`;
  }
  if (mode === "reset" && meter.resetsAt !== null) {
    const countdown = formatCountdown(meter.resetsAt, now);
    if (countdown === "now") return compact ? "reset" : "reset due";
    return compact ? largestUnit(countdown) : `resets in ${countdown}`;
  }
  return percent;
}

/** "3d 4h" → "3d", "2h 05m" → "2h": a countdown's largest unit. */
function largestUnit(countdown: string): string {
  return countdown.split(" ")[0] ?? countdown;
}
