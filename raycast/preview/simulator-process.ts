/**
 * The provider simulator in a process of its own, for the preview (started by simulator-client.ts,
 * spoken to over the IPC channel). Out of the preview's process, nothing the preview does (rendering,
 * waiting on Chromium) can hold up its answers or let its keep-alive timers close connections the
 * preview is about to reuse.
 */
import { ProviderSimulator } from "../../simulator/server.js";
import type { FromSimulator, ToSimulator } from "./simulator-client.js";

if (!process.send) throw new Error("simulator-process.ts is started by the preview (simulator-client.ts), not on its own");

const send = (message: FromSimulator) => process.send!(message);
const sim = await ProviderSimulator.start({ liveDates: true }); // the demo's dates: every reset inside its window

process.on("message", (message: ToSimulator) => {
  if (message.kind === "stop") {
    void sim.stop().finally(() => process.exit(0));
    return;
  }
  const done = async () => {
    if (message.kind === "seed") await sim.seedHome(message.home, message.providers);
    else for (const [id, scenario] of Object.entries(message.scenarios)) sim.setScenario(id, scenario);
  };
  done().then(
    () => send({ kind: "played", seq: message.seq }),
    (error: Error) => send({ kind: "failed", seq: message.seq, message: error.message }),
  );
});
// the preview went away (finished or crashed): do not outlive it
process.on("disconnect", () => void sim.stop().finally(() => process.exit(0)));

send({
  kind: "ready",
  pid: process.pid,
  env: sim.env(),
  providers: sim.providers.map((p) => ({ id: p.id, scenarios: [...p.scenarios], seedsHome: p.seedHome !== undefined })),
});
