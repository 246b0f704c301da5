/**
 * Public entry `concord-a2a/server/grpc`: the gRPC binding of an A2AServer (A2A 1.0 §10), beside the
 * HTTP adapters. `listenGrpc(server, {port})` serves both protocol versions on a port of its own,
 * with health checking and server reflection, and lists the gRPC interfaces on the agent's card.
 */
export { listenGrpc, type ListenGrpcOptions, type RunningGrpcServer } from './grpc-server.js';
