import { findObject, toBool, toNumber, type JsonObject } from "../kit/index.js";
import type { OpenCodeBilling } from "./policy.js";

/** `balance` and `monthlyUsage` are fixed-point: 2375000000 is $23.75. `monthlyLimit`, `reloadAmount` and `reloadTrigger` are whole dollars. */
const UNITS_PER_DOLLAR = 100_000_000;

/** The billing object: a numeric `balance` beside the fields only it has. */
const isBilling = (o: JsonObject) =>
  toNumber(o.balance) !== null && ["customerID", "reload", "reloadAmount", "monthlyLimit"].some((key) => key in o);

const nonNegative = (value: unknown): number | null => {
  const number = toNumber(value);
  return number !== null && number >= 0 ? number : null;
};

/**
 * `queryBillingInfo`'s answer as dollars; null when it holds no billing object. A figure that is
 * missing or negative where it cannot be (a limit, a month's spend) is left out, never guessed;
 * only the balance may be negative (overspent).
 */
export function billingOf(values: unknown[]): OpenCodeBilling | null {
  const o = findObject(values, isBilling);
  if (o === null) return null;
  const monthlyUsage = nonNegative(o.monthlyUsage);
  return {
    balance: toNumber(o.balance)! / UNITS_PER_DOLLAR,
    monthlyLimit: nonNegative(o.monthlyLimit),
    monthlyUsage: monthlyUsage === null ? null : monthlyUsage / UNITS_PER_DOLLAR,
    reload: reloadOf(o),
  };
}

function reloadOf(o: JsonObject): OpenCodeBilling["reload"] {
  const on = toBool(o.reload);
  if (on === false) return "off";
  const amount = nonNegative(o.reloadAmount);
  const trigger = nonNegative(o.reloadTrigger);
  return on === true && amount !== null && trigger !== null ? { amount, trigger } : null;
}
