// One real request, fully parsed and checked, sent before every timed run.
//
// The timed run only does substring checks per response (cheap enough for the load generator);
// this is the strict check that the server actually runs the echo agent: a completed task with
// the "echo: hello" artifact, in reply to the JSON-RPC id we sent.

import { REQUEST_HEADERS, checkSendReply, checkStreamReply, rpcBody } from './payload.mjs';

/** Sends one `rpcMethod` call to `url`; resolves null when the reply is right, else a reason. */
export async function checkServer(url, rpcMethod, kind = 'text') {
  const body = rpcBody(rpcMethod, kind);
  const { id } = JSON.parse(body);
  let res;
  let text;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: REQUEST_HEADERS,
      body,
      signal: globalThis.AbortSignal.timeout(10_000),
    });
    text = await res.text();
  } catch (e) {
    return `request failed: ${e.cause?.message ?? e.message}`;
  }
  if (res.status !== 200) return `HTTP ${res.status}: ${text.slice(0, 160)}`;
  if (rpcMethod === 'message/stream') {
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream'))
      return `stream reply has content-type ${type}: ${text.slice(0, 160)}`;
    return checkStreamReply(text);
  }
  return checkSendReply(text, id);
}
