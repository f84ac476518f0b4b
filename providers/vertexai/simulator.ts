import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

/** What the seeded ADC file holds and what the token endpoint accepts and hands out. */
const ADC = JSON.parse(fixture("adc.json")) as { client_id: string; client_secret: string; refresh_token: string };
export const VERTEX_ACCESS_TOKEN = (JSON.parse(fixture("token.json")) as { access_token: string }).access_token;
export const VERTEX_SECRETS = [ADC.client_secret, ADC.refresh_token, VERTEX_ACCESS_TOKEN];
export const VERTEX_PROJECT = "acme-ml-prod";

/** The reference's filters, written out here so a wire that drifts from them is caught. */
const QUOTA = 'AND resource.type="consumer_quota" AND resource.label.service="aiplatform.googleapis.com"';
const USAGE_FILTER = `metric.type="serviceruntime.googleapis.com/quota/allocation/usage" ${QUOTA}`;
const LIMIT_FILTER = `metric.type="serviceruntime.googleapis.com/quota/limit" ${QUOTA}`;
const UTC_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

const VERTEX_SCENARIOS = [
  "ok",
  "refresh_refused",
  "revoked",
  "api_disabled",
  "permission_denied",
  "no_series",
  "slow",
  "upstream_500",
  "unauthenticated",
];

const googleError = (status: number, message: string, code: string): SimReply => ({
  status,
  json: { error: { code: status, message, status: code } },
});

/** POST /token: the refresh grant, with every secret in the form body and nothing in the query. */
function token(request: SimRequest, scenario: string): SimReply {
  const form = new URLSearchParams(request.body);
  if (!String(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded") || [...request.query].length > 0) {
    return { status: 400, json: { error: "invalid_request", error_description: "form body expected" } };
  }
  if (form.get("grant_type") !== "refresh_token") return { status: 400, json: { error: "unsupported_grant_type" } };
  if (form.get("client_id") !== ADC.client_id || form.get("client_secret") !== ADC.client_secret) {
    return { status: 401, json: { error: "invalid_client", error_description: "The OAuth client was not found." } };
  }
  if (scenario === "refresh_refused" || form.get("refresh_token") !== ADC.refresh_token)
    return { status: 400, body: fixture("token-invalid-grant.json") };
  if (scenario === "revoked") return { status: 401, body: fixture("token-revoked.json") };
  return { body: fixture("token.json") };
}

/** GET /v3/projects/<project>/timeSeries: usage in one page, limits in two (the second reached with nextPageToken). */
function timeSeries(request: SimRequest, scenario: string): SimReply {
  // `unauthenticated`: even the token just minted is refused (a sign-in whose access was taken away)
  if (scenario === "unauthenticated" || bearer(request) !== VERTEX_ACCESS_TOKEN)
    return { status: 401, body: fixture("unauthenticated.json") };
  if (scenario === "api_disabled") return { status: 403, body: fixture("api-disabled.json") };
  const project = decodeURIComponent(request.path.split("/")[3] ?? "");
  if (scenario === "permission_denied" || project !== VERTEX_PROJECT) return { status: 403, body: fixture("permission-denied.json") };
  const q = request.query;
  const start = q.get("interval.startTime") ?? "";
  const end = q.get("interval.endTime") ?? "";
  const wellFormed =
    UTC_SECONDS.test(start) &&
    UTC_SECONDS.test(end) &&
    Date.parse(end) - Date.parse(start) === 86_400_000 &&
    q.get("aggregation.alignmentPeriod") === "3600s" &&
    q.get("aggregation.perSeriesAligner") === "ALIGN_MAX" &&
    q.get("view") === "FULL";
  const filter = q.get("filter");
  if (!wellFormed || (filter !== USAGE_FILTER && filter !== LIMIT_FILTER)) {
    return googleError(400, `Field filter or interval had an invalid value: ${filter}`, "INVALID_ARGUMENT");
  }
  if (scenario === "no_series") return { body: fixture("empty.json") };
  if (filter === USAGE_FILTER) return { body: fixture("usage.json") };
  const page = q.get("pageToken");
  if (page === null) return { body: fixture("limits-page-1.json") };
  if (page === "CkYKRAoCc3Q") return { body: fixture("limits-page-2.json") };
  return googleError(400, "Invalid page token.", "INVALID_ARGUMENT");
}

/** Google's token endpoint and Cloud Monitoring; `seedHome` lays out the gcloud files and Claude Code logs they go with. */
export const vertexUpstream: SimulatedUpstream = {
  id: "vertexai",
  origins: ["https://oauth2.googleapis.com", "https://monitoring.googleapis.com"],
  env: {},
  scenarios: VERTEX_SCENARIOS,
  routes: [
    { method: "POST", path: "/token", handle: token },
    { method: "GET", path: /^\/v3\/projects\/[^/]+\/timeSeries$/, handle: timeSeries },
  ],
  seedHome: (home) => seedVertexHome(home),
};

/**
 * A home as a gcloud and Claude Code user leaves it: the ADC file and the default configuration
 * under ~/.config/gcloud, and a Claude Code session under ~/.claude/projects with Vertex requests
 * over the last days (and one direct Anthropic request, which is not counted).
 */
export async function seedVertexHome(home: string, options: { now?: Date; logs?: boolean } = {}): Promise<void> {
  const gcloud = join(home, ".config", "gcloud");
  await mkdir(join(gcloud, "configurations"), { recursive: true });
  await writeFile(join(gcloud, "application_default_credentials.json"), fixture("adc.json"), { mode: 0o600 });
  await writeFile(join(gcloud, "configurations", "config_default"), fixture("config_default"));
  if (options.logs === false) return;
  const project = join(home, ".claude", "projects", "-Users-dev-acme");
  await mkdir(project, { recursive: true });
  await writeFile(join(project, "8d0c2f3e-5a51-4f4e-9a53-0d1b2c3d4e5f.jsonl"), recentSession(options.now ?? new Date()));
}

/** The reference session's lines, once per day for the last `days` days, ids made unique per day, times moved to that day. */
export function recentSession(now: Date, days = 10): string {
  const lines = fixture("claude-session.jsonl").trim().split("\n");
  const out: string[] = [];
  for (let day = days - 1; day >= 0; day--) {
    lines.forEach((text, i) => {
      const line = JSON.parse(text) as { timestamp: string; requestId?: string; message: { id?: string } };
      line.timestamp = new Date(now.getTime() - day * 86_400_000 - (lines.length - i) * 60_000).toISOString();
      if (line.message.id) line.message.id = `${line.message.id}_d${day}`;
      out.push(JSON.stringify(line));
    });
  }
  return `${out.join("\n")}\n`;
}

export interface CorpusOptions {
  files: number;
  lines: number;
  /** Entries fall on the 40 days before this. */
  now: Date;
  /** Share of all lines that are Vertex requests (default 0.3). */
  vertexShare?: number;
  seed?: number;
}

const MODELS = [
  ["claude-sonnet-4-5", "20250929", 0.6],
  ["claude-opus-4-5", "20251101", 0.15],
  ["claude-haiku-4-5", "20251001", 0.15],
  ["claude-opus-4-1", "20250805", 0.05],
  ["claude-sonnet-4-6", "20260301", 0.05], // no price: counted in tokens only
] as const;

const WORDS = "the parser reads each line then checks the usage of tokens before it writes a report for the day ".repeat(40);

/**
 * Claude Code logs as a heavy user has them, for the benchmark and the tests: `files` sessions of
 * `lines` lines, about 800 bytes a line. User turns (tool results) and assistant turns; of all
 * lines `vertexShare` are Vertex requests (the `@` model form, `_vrtx_` ids, or `metadata.provider`),
 * the other assistant turns went to Anthropic directly. Some answers are streamed in two chunks
 * (the second with the final counts), some lack a request id, a few have a long prompt or
 * one-hour cache writes. Deterministic for a seed.
 */
export async function writeClaudeLogCorpus(root: string, options: CorpusOptions): Promise<{ paths: string[]; bytes: number }> {
  const seed = options.seed ?? 1;
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
  const int = (max: number) => Math.floor(random() * max);
  const assistantShare = 0.65;
  const vertexOfAssistant = (options.vertexShare ?? 0.3) / assistantShare;
  const paths: string[] = [];
  let bytes = 0;
  for (let f = 0; f < options.files; f++) {
    const dir = join(root, `-Users-dev-project-${f % 7}`);
    await mkdir(dir, { recursive: true });
    const session = `5f0c${String(f).padStart(4, "0")}-aaaa-4bbb-8ccc-${String(f).padStart(12, "0")}`;
    const out: string[] = [];
    while (out.length < options.lines) {
      const at = new Date(options.now.getTime() - int(40 * 86_400_000) - 60_000);
      const timestamp = random() < 0.1 ? at.toISOString().replace("Z", "+00:00") : at.toISOString();
      if (random() >= assistantShare) {
        const text = `${WORDS.slice(int(200), 360 + int(300))} mail dev@example.com`;
        out.push(
          JSON.stringify({
            parentUuid: "p",
            isSidechain: false,
            sessionId: session,
            type: "user",
            message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: text }] },
            timestamp,
          }),
        );
        continue;
      }
      let pick = random();
      const [name, date] = MODELS.find(([, , share]) => (pick -= share) < 0) ?? MODELS[0];
      const vertex = random() < vertexOfAssistant;
      const form = vertex ? int(20) : -1; // 0-8: @ form, 9-17: _vrtx_ ids, 18-19: metadata
      const marker = form >= 9 && form <= 17 ? "vrtx_" : "";
      const id = `msg_${marker}01${seed}s${f}x${out.length}`;
      const requestId = random() < 0.03 ? undefined : `req_${marker}011C${seed}s${f}y${out.length}`;
      const longPrompt = random() < 0.02;
      const cacheWrite = int(30_000);
      const usage = {
        input_tokens: longPrompt ? 150_000 + int(100_000) : 1 + int(5_000),
        cache_creation_input_tokens: cacheWrite,
        cache_read_input_tokens: int(200_000),
        output_tokens: 1 + int(2_000),
        ...(random() < 0.1
          ? {
              cache_creation: {
                ephemeral_5m_input_tokens: cacheWrite - Math.floor(cacheWrite / 3),
                ephemeral_1h_input_tokens: Math.floor(cacheWrite / 3),
              },
            }
          : {}),
        service_tier: "standard",
      };
      const line = {
        parentUuid: "p",
        isSidechain: false,
        userType: "external",
        cwd: "/Users/dev/project",
        sessionId: session,
        version: "2.1.3",
        gitBranch: "main",
        message: {
          id,
          type: "message",
          role: "assistant",
          model: form >= 0 && form <= 8 ? `${name}@${date}` : `${name}-${date}`,
          content: [{ type: "text", text: WORDS.slice(int(200), 250 + int(200)) }],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
        requestId,
        type: "assistant",
        uuid: `u${out.length}`,
        timestamp,
        ...(form >= 18 ? { metadata: { provider: "vertexai" } } : {}),
      };
      out.push(JSON.stringify(line));
      // a streamed answer: a second chunk with the same ids and the final output count
      if (random() < 0.15)
        out.push(
          JSON.stringify({
            ...line,
            uuid: `v${out.length}`,
            message: { ...line.message, usage: { ...usage, output_tokens: usage.output_tokens + 100 } },
          }),
        );
    }
    const text = `${out.slice(0, options.lines).join("\n")}\n`;
    const path = join(dir, `${session}.jsonl`);
    await writeFile(path, text);
    paths.push(path);
    bytes += Buffer.byteLength(text);
  }
  return { paths, bytes };
}
