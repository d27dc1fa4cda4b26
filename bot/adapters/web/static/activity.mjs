// Majlis inside Discord (an Activity). Discord loads this site in an iframe with frame_id,
// instance_id and platform in the address; the Embedded App SDK (vendored beside this file, nothing
// fetched from elsewhere) does the handshake with the Discord client around the frame, asks the
// person to authorize the application, and the server exchanges the code for who they are and where
// the Activity runs. The answer is this person's credential: their seat at the channel's table, or a
// spectator's view. From there the page is the same page as everywhere else.
import { DiscordSDK } from "/static/discord-embedded-app-sdk.mjs";

async function json(response) {
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

export async function signIn() {
  const config = await json(await fetch("/api/discord", { cache: "no-store" }));
  const sdk = new DiscordSDK(config.client_id, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const answer = await json(await fetch("/api/discord", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code: code, instance_id: sdk.instanceId }),
  }));
  try {  // the SDK's other commands need it; the table does not
    await sdk.commands.authenticate({ access_token: answer.access_token });
  } catch (e) { /* the table works without it */ }
  return answer.token;
}
