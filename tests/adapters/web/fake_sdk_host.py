"""A fake of the Discord client around an Activity: the parent frame the Embedded App SDK talks to.

The SDK (``@discord/embedded-app-sdk`` 2.5.0, ``output/Discord.mjs``) speaks ``postMessage`` with its
parent window in ``[opcode, payload]`` pairs: opcode 0 HANDSHAKE (the SDK sends ``{v: 1, encoding:
"json", client_id, frame_id, sdk_version}``), 1 FRAME (commands ``{cmd, args, nonce}`` and their
answers ``{cmd, evt: null, nonce, data}``, events ``{cmd: "DISPATCH", evt, nonce: null, data}``,
errors ``{cmd, evt: "ERROR", nonce, data: {code, message}}``), 2 CLOSE, 3 HELLO. It accepts
messages only from its own origin and Discord's (``https://discord.com`` among them), and sends to
``document.referrer`` (or ``*``). So the host is served as ``https://discord.com/...`` by a
playwright route (nothing leaves the machine) and frames the real page on 127.0.0.1 with the query
Discord adds (``frame_id``, ``instance_id``, ``platform``, ``guild_id``, ``channel_id``).

The host answers the handshake with the READY dispatch, AUTHORIZE with a code that the fake
Discord (``tests/adapters/discord/fake_discord.py``) issues for the person the page belongs to,
AUTHENTICATE with what the fake says of an access token (an ERROR for one it never issued), and
anything else with an ERROR, as the Discord client does for a command it does not know. What the
SDK sent is kept in ``window.sdkLog`` for the test to read.
"""

from __future__ import annotations

import itertools
import json
from typing import Any
from urllib.parse import urlencode

from tests.adapters.discord.fake_discord import FakeDiscord

HOST = "https://discord.com"
_frames = itertools.count(1)

HOST_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Discord (a local fake)</title>
<style>
html, body { margin: 0; height: 100%; background: #313338; color: #dbdee1; font: 13px sans-serif; }
#bar { height: 28px; line-height: 28px; padding: 0 12px; background: #1e1f22; }
iframe { display: block; border: 0; width: 100%; height: calc(100% - 28px); background: #fff; }
</style></head>
<body><div id="bar">#table-0-0 · Activity · a local fake of the Discord client (tests)</div>
<iframe id="activity" allow="autoplay; clipboard-write"></iframe>
<script>
"use strict";
const cfg = JSON.parse(decodeURIComponent(location.hash.slice(1)));
const frame = document.getElementById("activity");
window.sdkLog = [];
function send(message) { frame.contentWindow.postMessage(message, "*"); }
function error(cmd, nonce, code, message) {
  send([1, { cmd: cmd, evt: "ERROR", nonce: nonce, data: { code: code, message: message } }]);
}
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [op, data] = event.data;
  if (op === 0) {  // HANDSHAKE
    window.sdkLog.push(["HANDSHAKE", data]);
    if (data.v !== 1 || data.client_id !== cfg.client_id || data.frame_id !== cfg.frame_id) {
      send([2, { code: 4000, message: "Invalid Client ID" }]);
      return;
    }
    send([1, { cmd: "DISPATCH", evt: "READY", nonce: null, data: {
      v: 1, config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
      user: cfg.user } }]);
    return;
  }
  if (op !== 1) return;
  const { cmd, args, nonce } = data;
  window.sdkLog.push([cmd, args]);
  if (cmd === "AUTHORIZE") {
    const code = await window.fakeAuthorize(args);
    if (code) send([1, { cmd: cmd, evt: null, nonce: nonce, data: { code: code } }]);
    else error(cmd, nonce, 4007, "Invalid client id");
  } else if (cmd === "AUTHENTICATE") {
    const found = await window.fakeAuthenticate(args && args.access_token);
    if (found) send([1, { cmd: cmd, evt: null, nonce: nonce, data: found }]);
    else error(cmd, nonce, 4009, "Invalid token");
  } else {
    error(cmd, nonce, 4002, "Invalid command: " + cmd);
  }
});
frame.src = cfg.src;
</script></body></html>"""


async def route_host(context: Any) -> None:
    """Serve the fake host for every ``https://discord.com/...`` address of a browser context."""
    async def fulfill(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/html", body=HOST_HTML)

    await context.route(HOST + "/**", fulfill)


async def open_activity(context: Any, fake: FakeDiscord, user_id: int, instance_id: str, site: str, *,
                        forge: bool = False, viewport: dict[str, int] | None = None) -> tuple[Any, Any]:
    """Open the Activity as ``user_id`` would in Discord: the host page framing ``site``.

    Returns ``(page, frame)``: the host and the Activity's frame. ``forge``: AUTHORIZE answers a
    code that Discord never issued (what a person who makes one up would send).
    """
    page = await context.new_page()
    await page.set_viewport_size(viewport or {"width": 1280, "height": 860})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))

    async def authorize(args: dict[str, Any]) -> str | None:
        if forge:
            return "forged-" + "x" * 20
        return fake.authorize(user_id, str(args.get("client_id")), list(args.get("scope") or []))

    async def authenticate(token: str | None) -> dict[str, Any] | None:
        return fake.authenticate(token)

    await page.expose_function("fakeAuthorize", authorize)
    await page.expose_function("fakeAuthenticate", authenticate)
    instance = fake.instances[instance_id]
    frame_id = f"frame-{next(_frames)}"
    query = {"frame_id": frame_id, "instance_id": instance_id, "platform": "desktop",
             "guild_id": str(instance["guild_id"]), "channel_id": str(instance["channel_id"]),
             "location_id": f"gc-{instance['guild_id']}-{instance['channel_id']}"}
    user = fake.users[user_id]
    cfg = {"src": f"{site}/?{urlencode(query)}", "client_id": str(fake.app_id), "frame_id": frame_id,
           "user": {"id": user["id"], "username": user["username"], "discriminator": "0"}}
    await page.goto(f"{HOST}/activities/{instance_id}#" + json.dumps(cfg))
    frame = None
    for _ in range(200):
        frame = next((f for f in page.frames if f.url.startswith(site)), None)
        if frame is not None:
            break
        await page.wait_for_timeout(25)
    assert frame is not None, [f.url for f in page.frames]
    return page, frame
