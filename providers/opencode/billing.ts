import { checkedCount, findObject, toBool, toNumber, type JsonObject } from "../kit/index.js";
import { SERVICE } from "./errors.js";
import type { OpenCodeBilling } from "./policy.js";

/** `balance` and `monthlyUsage` are fixed-point: 2375000000 is $23.75. `monthlyLimit`, `reloadAmount` and `reloadTrigger` are whole dollars. */
const UNITS_PER_DOLLAR = 100_000_000;

/** The billing object: a numeric `balance` beside the fields only it has. */
const isBilling = (o: JsonObject) =>
  toNumber(o.balance) !== null && ["customerID", "reload", "reloadAmount", "monthlyLimit"].some((key) => key in o);

/** A figure that cannot be negative (a limit, a month's spend, the reload amounts): null when missing, a parse error naming it when negative. */
const count = (o: JsonObject, key: string): number | null => checkedCount(toNumber(o[key]), key, SERVICE);

/**
 * `queryBillingInfo`'s answer as dollars; null when it holds no billing object. A missing figure
 * is left out, never guessed; only the balance may be negative (overspent).
 */
export function billingOf(values: unknown[]): OpenCodeBilling | null {
  const o = findObject(values, isBilling);
  if (o === null) return null;
  const monthlyUsage = count(o, "monthlyUsage");
  return {
    balance: toNumber(o.balance)! / UNITS_PER_DOLLAR,
    monthlyLimit: count(o, "monthlyLimit"),
    monthlyUsage: monthlyUsage === null ? null : monthlyUsage / UNITS_PER_DOLLAR,
    reload: reloadOf(o),
  };
}

function reloadOf(o: JsonObject): OpenCodeBilling["reload"] {
  const on = toBool(o.reload);
  if (on === false) return "off";
  const amount = count(o, "reloadAmount");
  const trigger = count(o, "reloadTrigger");
  return on === true && amount !== null && trigger !== null ? { amount, trigger } : null;
}
