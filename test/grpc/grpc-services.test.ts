/**
 * What a gRPC listener offers besides A2A: the card lists the gRPC interfaces only while they are
 * served (1.0 `supportedInterfaces`, 0.3 `additionalInterfaces`), the standard health service
 * answers for both A2A services, and server reflection lets grpcurl-style tools discover them.
 */
import { createRequire } from 'node:module';
import {
  credentials,
  loadPackageDefinition,
  type Client,
  type ServiceClientConstructor,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { protoPath as healthProto } from 'grpc-health-check';
import { create, createFileRegistry, fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

const require = createRequire(import.meta.url);

interface CardJson {
  supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
  additionalInterfaces?: { url: string; transport: string }[];
}

async function card(url: string, version?: string): Promise<CardJson> {
  const response = await fetch(`${url}.well-known/agent-card.json`, {
    headers: version === undefined ? {} : { 'a2a-version': version },
  });
  return (await response.json()) as CardJson;
}

function clientOf(proto: string, service: string, target: string): Client {
  const pkg = loadPackageDefinition(loadSync(proto, { keepCase: true, enums: String }));
  const Ctor = service.split('.').reduce<unknown>((at, name) => (at as Record<string, unknown>)[name], pkg);
  return new (Ctor as ServiceClientConstructor)(target, credentials.createInsecure());
}

describe('the gRPC listener', () => {
  let echo: EchoServer;
  beforeAll(async () => {
    echo = await startEcho({ grpc: true });
  });
  afterAll(async () => {
    await echo.close();
  });

  it('the card lists the gRPC interfaces of both versions at host:port while they are served', async () => {
    const target = echo.grpc!.target;
    expect(target).toMatch(/^127\.0\.0\.1:\d+$/);
    const v1 = await card(echo.url, '1.0');
    expect(v1.supportedInterfaces.filter((i) => i.protocolBinding === 'GRPC')).toEqual([
      { url: target, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: target, protocolBinding: 'GRPC', protocolVersion: '0.3' },
    ]);
    const v03 = await card(echo.url);
    expect(v03.additionalInterfaces).toContainEqual({ url: target, transport: 'GRPC' });
  });

  it('a server without a gRPC listener claims no gRPC interface', async () => {
    const plain = await startEcho();
    const v1 = await card(plain.url, '1.0');
    const v03 = await card(plain.url);
    await plain.close();
    expect(v1.supportedInterfaces.map((i) => i.protocolBinding)).not.toContain('GRPC');
    expect(v03.additionalInterfaces?.map((i) => i.transport)).not.toContain('GRPC');
  });

  it('answers grpc.health.v1 Check for the server and both A2A services', async () => {
    const health = clientOf(healthProto, 'grpc.health.v1.Health', echo.grpc!.target) as Client & {
      Check(req: { service: string }, cb: (e: Error | null, r?: { status: string }) => void): void;
    };
    const check = (service: string) =>
      new Promise<string>((resolve) =>
        health.Check({ service }, (e, r) =>
          resolve(e === null ? String(r?.status) : `error ${(e as { code?: number }).code}`),
        ),
      );
    expect(await check('')).toBe('SERVING');
    expect(await check('lf.a2a.v1.A2AService')).toBe('SERVING');
    expect(await check('a2a.v1.A2AService')).toBe('SERVING');
    expect(await check('no.such.Service')).toBe('error 5');
    health.close();
  });

  it('server reflection lists the services and serves their descriptors', async () => {
    const proto = require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto');
    const reflection = clientOf(proto, 'grpc.reflection.v1.ServerReflection', echo.grpc!.target) as Client & {
      ServerReflectionInfo(): NodeJS.ReadWriteStream & { write(m: unknown): boolean; end(): void };
    };
    const ask = (request: Record<string, unknown>) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const stream = reflection.ServerReflectionInfo();
        stream.on('data', (m: Record<string, unknown>) => {
          resolve(m);
          stream.end();
        });
        stream.on('error', reject);
        stream.write(request);
      });
    const listed = (await ask({ list_services: '*' })).list_services_response as {
      service: { name: string }[];
    };
    const names = listed.service.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining(['lf.a2a.v1.A2AService', 'a2a.v1.A2AService', 'grpc.health.v1.Health']),
    );

    const files = (await ask({ file_containing_symbol: 'lf.a2a.v1.A2AService' }))
      .file_descriptor_response as {
      file_descriptor_proto: Buffer[];
    };
    const descriptor = protobuf.Root.fromJSON(
      require('protobufjs/google/protobuf/descriptor.json') as protobuf.INamespace,
    );
    const FileDescriptorProto = descriptor.lookupType('google.protobuf.FileDescriptorProto');
    const decoded = files.file_descriptor_proto.map(
      (bytes) =>
        FileDescriptorProto.toObject(FileDescriptorProto.decode(bytes)) as {
          service?: { name: string; method: { name: string }[] }[];
          messageType?: { name: string }[];
        },
    );
    const service = decoded.flatMap((f) => f.service ?? []).find((s) => s.name === 'A2AService');
    expect(service?.method.map((m) => m.name)).toEqual([
      'SendMessage',
      'SendStreamingMessage',
      'GetTask',
      'ListTasks',
      'CancelTask',
      'SubscribeToTask',
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'GetExtendedAgentCard',
      'DeleteTaskPushNotificationConfig',
    ]);
    expect(decoded.flatMap((f) => f.messageType ?? []).map((m) => m.name)).toContain('SendMessageRequest');
    // The 0.3 proto's explicit json_name survives, so JSON tools spell the field as the spec does.
    const v03 = (await ask({ file_containing_symbol: 'a2a.v1.StreamResponse' })).file_descriptor_response as {
      file_descriptor_proto: Buffer[];
    };
    const stream = v03.file_descriptor_proto
      .map(
        (bytes) =>
          FileDescriptorProto.toObject(FileDescriptorProto.decode(bytes)) as {
            messageType?: { name: string; field?: { name: string; jsonName?: string }[] }[];
          },
      )
      .flatMap((f) => f.messageType ?? [])
      .find((m) => m.name === 'StreamResponse');
    expect(stream?.field?.find((f) => f.name === 'msg')?.jsonName).toBe('message');

    // A strict linker (as grpcurl's) builds both services from what reflection serves.
    const all = [...files.file_descriptor_proto, ...v03.file_descriptor_proto].map((b) =>
      fromBinary(FileDescriptorProtoSchema, new Uint8Array(b)),
    );
    const byName = new Map(all.map((f) => [f.name, f]));
    // Dependencies first, as a FileDescriptorSet lists them.
    const ordered: typeof all = [];
    const place = (name: string): void => {
      const file = byName.get(name);
      if (file === undefined || ordered.includes(file)) return;
      byName.delete(name);
      for (const dep of file.dependency) place(dep);
      ordered.push(file);
    };
    for (const name of [...byName.keys()]) place(name);
    const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: ordered }));
    expect(registry.getService('lf.a2a.v1.A2AService')?.methods).toHaveLength(11);
    expect(registry.getService('a2a.v1.A2AService')?.methods).toHaveLength(10);
    expect(registry.getMessage('a2a.v1.TaskStatus')?.fields.find((f) => f.name === 'update')?.jsonName).toBe(
      'message',
    );
    // Every dependency a descriptor names is served too, as grpcurl fetches them to build types.
    const dependencies = new Set(
      files.file_descriptor_proto.flatMap(
        (bytes) =>
          (FileDescriptorProto.toObject(FileDescriptorProto.decode(bytes)) as { dependency?: string[] })
            .dependency ?? [],
      ),
    );
    expect(dependencies.size).toBeGreaterThan(0);
    for (const name of dependencies) {
      const answer = await ask({ file_by_filename: name });
      expect(answer.error_response, name).toBeUndefined();
      expect(
        (answer.file_descriptor_response as { file_descriptor_proto: Buffer[] }).file_descriptor_proto.length,
      ).toBeGreaterThan(0);
    }
    reflection.close();
  });

  it('closing the listener withdraws the gRPC interfaces from the card', async () => {
    const other = await startEcho({ grpc: true });
    await other.grpc!.close();
    const v1 = await card(other.url, '1.0');
    await other.close();
    expect(v1.supportedInterfaces.map((i) => i.protocolBinding)).not.toContain('GRPC');
  });
});
