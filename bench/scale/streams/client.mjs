// The subscribing side of the streams scale part (bench/scale/streams.mjs), one process pinned to
// core 1, driven over its IPC channel. It holds many task streams as cheaply as it can so the
// server is what is measured: SSE over raw sockets speaking just enough HTTP/1.1 (a POST to the
// A2A 1.0 HTTP+JSON `SubscribeToTask` route, `/tasks/{id}:subscribe`), gRPC as @grpc/grpc-js
// server streams of bytes (`SubscribeToTask`, several streams multiplexed per HTTP/2 connection
// as gRPC clients do). Events are not decoded: the benchmark's agent writes `t=<ms>;` into each
// status message it emits, and that text shows verbatim in both the SSE JSON and the protobuf
// bytes, so finding it is all a stream has to do.
//
// Messages from the parent:
//   { cmd: 'open', kind: 'sse'|'grpc', port, grpcTarget, taskIds, perConnection }
//        opens one stream per id (an id may repeat: several streams of one task); answers
//        { cmd: 'opened', count, failed } once every stream has its first event (the Task)
//   { cmd: 'stats' }     answers { cmd: 'stats', heartbeats, cpu } (keep-alive comments received)
//   { cmd: 'latencies' } answers { cmd: 'latencies', values } (ms from emit to arrival) and clears them
//   { cmd: 'ends' }      answers { cmd: 'ends', ended, open } once every stream ended (or 10 s passed)
//   { cmd: 'close' }     drops every stream and exits
// and on its own, { cmd: 'delivered', t } once every stream of this process has a marker `t`.

import { performance } from 'node:perf_hooks';
import { connect } from 'node:net';
import { credentials, Metadata, makeGenericClientConstructor } from '@grpc/grpc-js';
import { grpcSchema } from '../../../dist/client/transports/grpc-schema.js';

const now = () => performance.timeOrigin + performance.now();
const MARKER = /t=(\d+\.\d+);/g;

/** Every open stream: { ended: boolean, close() }. */
const streams = [];
/** Marker → how many of this process's streams have seen it. */
const seen = new Map();
let latencies = [];
let heartbeats = 0;

/** A stream saw the markers in `text` at `at`. */
function arrived(text, at) {
  for (const m of text.matchAll(MARKER)) {
    const t = m[1];
    latencies.push(at - Number(t));
    const count = (seen.get(t) ?? 0) + 1;
    if (count === streams.length) {
      seen.delete(t);
      process.send({ cmd: 'delivered', t: Number(t) });
    } else seen.set(t, count);
  }
}

/** One SSE subscription over a raw socket; `onFirst(ok)` once its first event (or a failure) came. */
function openSse(port, taskId, onFirst) {
  const stream = { ended: false, close: () => socket.destroy() };
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  socket.setEncoding('latin1');
  socket.write(
    `POST /tasks/${encodeURIComponent(taskId)}:subscribe HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      'A2A-Version: 1.0\r\nContent-Length: 0\r\n\r\n',
  );
  let head = true;
  let pending = '';
  let first = true;
  const fail = () => {
    stream.ended = true;
    if (first) {
      first = false;
      onFirst(false);
    }
  };
  socket.on('error', fail);
  socket.on('close', fail);
  socket.on('data', (chunk) => {
    const at = now();
    let text = pending + chunk;
    // The last chunk of a chunked body: the server ended the stream (the task finished).
    if (text.endsWith('\r\n0\r\n\r\n')) {
      stream.ended = true;
      socket.end();
    }
    if (head) {
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return void (pending = text);
      if (!text.startsWith('HTTP/1.1 200')) return void socket.destroy();
      head = false;
      text = text.slice(end + 4);
    }
    // Only whole SSE events are read; the rest waits for the next chunk.
    const cut = text.lastIndexOf('\n\n');
    if (cut === -1) return void (pending = text);
    pending = text.slice(cut + 2);
    let events = text.slice(0, cut);
    if (first) {
      // The first event is the Task as it stands, which is not a delivery.
      first = false;
      const firstEnd = events.indexOf('\n\n');
      events = firstEnd === -1 ? '' : events.slice(firstEnd + 2);
      onFirst(true);
    }
    for (let i = events.indexOf(': keep-alive'); i !== -1; i = events.indexOf(': keep-alive', i + 1))
      heartbeats++;
    arrived(events, at);
  });
  return stream;
}

const subscribe = grpcSchema().services['1.0'].method('subscribeToTask');
const GrpcClient = makeGenericClientConstructor({}, 'lf.a2a.v1.A2AService');
const bytes = (b) => b;

/** One gRPC SubscribeToTask call on `client`. */
function openGrpc(client, taskId, onFirst) {
  const stream = { ended: false, close: () => call.cancel() };
  const md = new Metadata();
  md.set('a2a-version', '1.0');
  const call = client.makeServerStreamRequest(
    subscribe.path,
    bytes,
    bytes,
    subscribe.writeRequest({ id: taskId }),
    md,
  );
  let first = true;
  call.on('data', (buf) => {
    const at = now();
    if (first) {
      first = false;
      return onFirst(true);
    }
    arrived(buf.toString('latin1'), at);
  });
  call.on('error', () => {
    stream.ended = true;
    if (first) {
      first = false;
      onFirst(false);
    }
  });
  call.on('end', () => (stream.ended = true));
  return stream;
}

function open({ kind, port, grpcTarget, taskIds, perConnection }) {
  let waiting = taskIds.length;
  let failed = 0;
  const onFirst = (ok) => {
    if (!ok) failed++;
    if (--waiting === 0) process.send({ cmd: 'opened', count: taskIds.length - failed, failed });
  };
  let client;
  taskIds.forEach((id, i) => {
    if (kind === 'sse') return streams.push(openSse(port, id, onFirst));
    // Each client has a connection of its own (a local subchannel pool), `perConnection` streams on it.
    if (i % perConnection === 0) {
      client = new GrpcClient(grpcTarget, credentials.createInsecure(), {
        'grpc.use_local_subchannel_pool': 1,
        'grpc.max_receive_message_length': -1,
      });
    }
    streams.push(openGrpc(client, id, onFirst));
  });
}

function awaitEnds() {
  const deadline = Date.now() + 10_000;
  const check = () => {
    const open = streams.filter((s) => !s.ended).length;
    if (open === 0 || Date.now() > deadline)
      process.send({ cmd: 'ends', ended: streams.length - open, open });
    else setTimeout(check, 50);
  };
  check();
}

process.on('message', (msg) => {
  if (msg.cmd === 'open') open(msg);
  else if (msg.cmd === 'stats') process.send({ cmd: 'stats', heartbeats, cpu: process.cpuUsage() });
  else if (msg.cmd === 'latencies') {
    process.send({ cmd: 'latencies', values: latencies });
    latencies = [];
  } else if (msg.cmd === 'ends') awaitEnds();
  else if (msg.cmd === 'close') {
    for (const s of streams) s.close();
    process.exit(0);
  }
});
process.send({ cmd: 'ready' });
