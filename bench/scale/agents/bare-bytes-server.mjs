// The floor of the artifacts part: a bare node:http server that writes the artifact's bytes in
// the same chunks, waiting for the socket to drain as a streaming server must, and nothing else.
// GET /bytes?total=<bytes>&chunk=<bytes>.

import { createServer } from 'node:http';
import { chunkBytes, chunking } from './artifact-bytes.mjs';

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const total = Number(url.searchParams.get('total'));
  const size = Number(url.searchParams.get('chunk'));
  const { count, length } = chunking(total, size);
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  for (let i = 0; i < count; i++) {
    if (!res.write(chunkBytes(i, length(i)))) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('READY {}\n'));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
