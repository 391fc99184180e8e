/**
 * Child process: subscribes to a channel on DATABASE_URL (postgres.js, with
 * `application_name` = the channel, so the parent can find and terminate its
 * LISTEN connection) and prints `ready`, then `msg <payload>` per message
 * and `resub` per re-established subscription; exits on the message `quit`.
 *
 * Args: `<channel> <healthCheckMs>`
 *
 * @module
 */
import postgres from "postgres";
import { postgresJsDriver, subscribe } from "../../mod.ts";

const [channel, healthCheckMs] = Deno.args;
const driver = postgresJsDriver(
  postgres(Deno.env.get("DATABASE_URL")!, {
    max: 2,
    onnotice: () => {},
    connection: { application_name: channel },
  }),
);
let done!: () => void;
const quit = new Promise<void>((r) => done = r);
const sub = await subscribe(driver, channel, {
  onMessage(payload) {
    console.log(`msg ${payload}`);
    if (payload === "quit") done();
  },
  onResubscribed: () => console.log("resub"),
  onError: (e) => console.error(`error ${e}`),
}, { healthCheckMs: Number(healthCheckMs) });
if (!sub.ok) throw new Error(sub.error.message);
console.log("ready");
await quit;
await sub.value.close();
await driver.close();
