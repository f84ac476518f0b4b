import * as z from "../../domain/zod.js";
import { countProblem, decodeValue, isObject, toBool, toNumber, toText, toTime, valueAt, type JsonObject } from "../kit/index.js";
import { zCount } from "../kit/schema.js";
import { kiloParseError } from "./errors.js";
import {
  kiloTierName,
  PERSONAL_SCOPE,
  type KiloAutoTopUp,
  type KiloCredits,
  type KiloPass,
  type KiloReading,
  type KiloScope,
} from "./policy.js";
import { KILO_PROCEDURES } from "./trpc-batch.js";

const [CREDITS, PASS] = KILO_PROCEDURES;

/**
 * Kilo's procedures have no published schema; the real client searches them for any of several
 * keys. This module is that search, turning the three payloads into a reading.
 */
export function kiloReading(credits: unknown, pass: unknown, autoTopUp: unknown, scope: KiloScope = PERSONAL_SCOPE): KiloReading {
  const { pass: passRead, planName } = passReading(pass);
  return {
    credits: creditsReading(credits),
    pass: passRead,
    planName,
    autoTopUp: autoTopUpReading(autoTopUp, credits),
    scope,
  };
}

/** The payload plus nested objects (and objects in arrays) down to depth 2, breadth first. */
export function contextsOf(payload: unknown): JsonObject[] {
  if (!isObject(payload)) return [];
  const contexts = [payload];
  let level = [payload];
  for (let depth = 1; depth <= 2; depth++) {
    const next: JsonObject[] = [];
    for (const object of level) {
      for (const value of Object.values(object)) {
        if (isObject(value)) next.push(value);
        else if (Array.isArray(value)) next.push(...value.filter(isObject));
      }
    }
    contexts.push(...next);
    level = next;
  }
  return contexts;
}

/** The first value `read` accepts; context order beats key order (an outer object's key wins over a nested one's). */
function firstIn<T>(contexts: readonly JsonObject[], keys: readonly string[], read: (value: unknown, key: string) => T | null): T | null {
  for (const context of contexts) {
    for (const key of keys) {
      if (!Object.hasOwn(context, key) || context[key] === undefined) continue;
      const value = read(context[key], key);
      if (value !== null) return value;
    }
  }
  return null;
}

/** A balance or amount below zero is impossible: a parse error naming the field, never an exhausted meter. */
function nonNegative(procedure: string, field: string, value: number | null): number | null {
  const problem = value === null ? null : countProblem(value);
  if (problem !== null) throw kiloParseError(`${procedure}: ${field}: ${problem}`);
  return value;
}

/** An amount of one procedure's payload, checked like `nonNegative`. */
const amountIn = (procedure: string) => (contexts: readonly JsonObject[], keys: readonly string[]) =>
  firstIn(contexts, keys, (value, key) => nonNegative(procedure, key, toNumber(value)));
const creditAmountIn = amountIn(CREDITS);
const passAmountIn = amountIn(PASS);

const numberIn = (contexts: readonly JsonObject[], keys: readonly string[]) => firstIn(contexts, keys, toNumber);
const textIn = (contexts: readonly JsonObject[], keys: readonly string[]) => firstIn(contexts, keys, toText);
const timeIn = (contexts: readonly JsonObject[], keys: readonly string[]) => firstIn(contexts, keys, toTime);

const SWITCH_WORDS = new Map([
  ["enabled", true],
  ["on", true],
  ["disabled", false],
  ["off", false],
]);

/** Booleans and their words (true/yes/1/enabled/on and the opposites); numbers do not count. */
function switchOf(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return null;
  return toBool(value) ?? SWITCH_WORDS.get(value.trim().toLowerCase()) ?? null;
}

const switchIn = (contexts: readonly JsonObject[], keys: readonly string[]) => firstIn(contexts, keys, switchOf);

const MICRO = 1_000_000;
const round = (value: number) => Math.round(value * 1e6) / 1e6;

// Credit blocks carry micro-dollars; a wrong type or a negative amount is a parse error naming the field.
const microDollars = z.nullish(zCount);
const CreditBlocks = z.object({
  creditBlocks: z.array(z.looseObject({ amount_mUsd: microDollars, balance_mUsd: microDollars })),
});

function creditsReading(payload: unknown): KiloCredits | null {
  const contexts = contextsOf(payload);
  const holder = contexts.find((c) => Array.isArray(c.creditBlocks));
  if (holder) {
    const { creditBlocks } = decodeValue({ creditBlocks: holder.creditBlocks }, CreditBlocks, "Kilo API (user.getCreditBlocks)");
    const amounts = creditBlocks.map((b) => b.amount_mUsd).filter((v): v is number => typeof v === "number");
    const balances = creditBlocks.map((b) => b.balance_mUsd).filter((v): v is number => typeof v === "number");
    if (amounts.length > 0 || balances.length > 0) {
      const total = amounts.length > 0 ? round(amounts.reduce((a, b) => a + b, 0) / MICRO) : null;
      const remaining = balances.length > 0 ? round(balances.reduce((a, b) => a + b, 0) / MICRO) : null;
      return { total, remaining, used: total !== null && remaining !== null ? Math.max(0, round(total - remaining)) : null };
    }
  }
  const blocks = contexts.flatMap((c) => (Array.isArray(c.blocks) ? c.blocks.filter(isObject) : []));
  const search = [...blocks, ...contexts];
  const used = creditAmountIn(search, ["used", "usedCredits", "consumed", "spent", "creditsUsed"]);
  let total = creditAmountIn(search, ["total", "totalCredits", "creditsTotal", "limit"]);
  const remaining = creditAmountIn(search, ["remaining", "remainingCredits", "creditsRemaining"]);
  if (total === null && used !== null && remaining !== null) total = used + remaining;
  if (used !== null || total !== null || remaining !== null) return { used, total, remaining };
  const balance = creditAmountIn(contexts, ["totalBalance_mUsd"]);
  if (balance === null) return null;
  return balance === 0 ? { used: 0, total: 0, remaining: 0 } : { used: 0, total: balance / MICRO, remaining: balance / MICRO };
}

/** Used, base and bonus dollars of the period, in that order. */
const SUBSCRIPTION_AMOUNTS = ["currentPeriodUsageUsd", "currentPeriodBaseCreditsUsd", "currentPeriodBonusCreditsUsd"] as const;
const SUBSCRIPTION_KEYS = [...SUBSCRIPTION_AMOUNTS, "tier"];

/** Money in cents first, then micro-dollars, then plain dollars. */
function moneyIn(contexts: readonly JsonObject[], cents: readonly string[], micro: readonly string[], dollars: readonly string[]) {
  const inCents = passAmountIn(contexts, cents);
  if (inCents !== null) return inCents / 100;
  const inMicro = passAmountIn(contexts, micro);
  if (inMicro !== null) return inMicro / MICRO;
  return passAmountIn(contexts, dollars);
}

function passReading(payload: unknown): { pass: KiloPass | null; planName: string | null } {
  if (!isObject(payload)) return { pass: null, planName: null };
  const declared = payload.subscription;
  const subscription = isObject(declared)
    ? declared
    : declared !== null && SUBSCRIPTION_KEYS.some((key) => key in payload)
      ? payload
      : null;
  if (subscription) return subscriptionReading(subscription);
  const contexts = contextsOf(payload);
  const total = moneyIn(
    contexts,
    ["amountCents", "totalCents", "planAmountCents", "monthlyAmountCents", "limitCents", "includedCents", "valueCents"],
    ["amount_mUsd", "total_mUsd", "planAmount_mUsd", "limit_mUsd", "included_mUsd", "value_mUsd"],
    ["amount", "total", "limit", "included", "value", "creditsTotal", "totalCredits", "planAmount"],
  );
  const used = moneyIn(
    contexts,
    ["usedCents", "spentCents", "consumedCents", "usedAmountCents", "consumedAmountCents"],
    ["used_mUsd", "spent_mUsd", "consumed_mUsd", "usedAmount_mUsd"],
    ["used", "spent", "consumed", "usage", "creditsUsed", "usedAmount", "consumedAmount"],
  );
  const remaining = moneyIn(
    contexts,
    ["remainingCents", "remainingAmountCents", "availableCents", "leftCents", "balanceCents"],
    ["remaining_mUsd", "available_mUsd", "left_mUsd", "balance_mUsd"],
    ["remaining", "available", "left", "balance", "creditsRemaining", "remainingAmount", "availableAmount"],
  );
  const bonus = moneyIn(
    contexts,
    ["bonusCents", "bonusAmountCents", "includedBonusCents", "bonusRemainingCents"],
    ["bonus_mUsd", "bonusAmount_mUsd"],
    ["bonus", "bonusAmount", "bonusCredits", "includedBonus"],
  );
  const found = total !== null || used !== null || remaining !== null;
  return {
    pass: found
      ? {
          used,
          total: total ?? (used !== null && remaining !== null ? used + remaining : null),
          remaining,
          bonus: bonus ?? 0,
          resetsAt: timeIn(contexts, [
            "resetAt",
            "resetsAt",
            "nextResetAt",
            "renewAt",
            "renewsAt",
            "nextRenewalAt",
            "currentPeriodEnd",
            "periodEndsAt",
            "expiresAt",
            "expiryAt",
          ]),
        }
      : null,
    planName: planName(payload, contexts),
  };
}

/** The `subscription` object of kiloPass.getState (or the payload itself when it has its keys). */
function subscriptionReading(subscription: JsonObject): { pass: KiloPass; planName: string } {
  const [used = null, baseCredits = null, bonusCredits = null] = SUBSCRIPTION_AMOUNTS.map((key) =>
    nonNegative(PASS, `subscription.${key}`, toNumber(subscription[key])),
  );
  const bonus = bonusCredits ?? 0;
  const tier = toText(subscription.tier);
  return {
    pass: {
      used,
      total: baseCredits !== null ? baseCredits + bonus : null,
      remaining: null,
      bonus,
      resetsAt: timeIn([subscription], ["nextBillingAt", "nextRenewalAt", "renewsAt", "renewAt"]),
    },
    planName: tier ? kiloTierName(tier) : "Kilo Pass",
  };
}

function planName(payload: JsonObject, contexts: readonly JsonObject[]): string | null {
  const named = textIn(contexts, ["planName", "tier", "tierName", "passName", "subscriptionName"]);
  if (named) return kiloTierName(named);
  for (const path of ["plan.name", "subscription.plan.name", "subscription.name", "pass.name", "state.name", "state"]) {
    const value = toText(valueAt(payload, path));
    if (value) return value;
  }
  // Last resort: any object named like a pass ("Kilo Pass Pro").
  for (const context of contexts) {
    const name = toText(context.name);
    if (name && /pass/i.test(name)) return name;
  }
  return null;
}

function autoTopUpReading(payload: unknown, creditsPayload: unknown): KiloAutoTopUp | null {
  const contexts = contextsOf(payload);
  const status = textIn(contexts, ["status"])?.toLowerCase();
  const enabled =
    switchIn(contexts, ["enabled", "isEnabled", "active"]) ??
    (status && ["enabled", "active", "on"].includes(status) ? true : null) ??
    (status && ["disabled", "inactive", "off", "none"].includes(status) ? false : null) ??
    switchIn(contextsOf(creditsPayload).slice(0, 1), ["autoTopUpEnabled"]);
  if (enabled === null) return null;
  return { enabled, method: enabled ? topUpMethod(contexts) : null };
}

function topUpMethod(contexts: readonly JsonObject[]): string | null {
  const named = textIn(contexts, ["paymentMethod", "paymentMethodType", "method", "cardBrand"]);
  if (named) return named;
  const cents = numberIn(contexts, ["amountCents"]);
  const amount = cents !== null ? cents / 100 : numberIn(contexts, ["amount", "topUpAmount", "amountUsd"]);
  if (amount === null) return null;
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
}
