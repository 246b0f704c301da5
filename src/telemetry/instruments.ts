/**
 * Concord's metric instruments (conventions.ts `METRIC`), through the OpenTelemetry metrics API.
 * The API hands out a no-op meter until a provider is registered and never upgrades a meter made
 * before, so the instruments are made per provider: the first use after `concord serve` (or the
 * application) registers one makes them again. Without a provider, `metricsOn()` is false and
 * callers skip building attributes at all.
 */
import { createNoopMeter, metrics, type Attributes, type MeterProvider } from '@opentelemetry/api';
import type { Counter, Histogram, UpDownCounter } from '@opentelemetry/api';
import { DURATION_BUCKETS, INSTRUMENTATION_SCOPE, METRIC } from './conventions.js';

/** Every instrument, made from one provider. */
export interface Instruments {
  /** False when the provider is the API's no-op: nothing is recorded, skip the attributes. */
  readonly on: boolean;
  readonly requestDuration: Histogram;
  readonly requests: Counter;
  readonly activeStreams: UpDownCounter;
  readonly clientDuration: Histogram;
  readonly taskTransitions: Counter;
  readonly pushDeliveries: Counter;
  readonly storeCommitDuration: Histogram;
  readonly contractRefusals: Counter;
  readonly mandateDecisions: Counter;
  readonly modelDuration: Histogram;
  readonly modelTokens: Histogram;
}

let made: { provider: MeterProvider; instruments: Instruments } | undefined;

/** The instruments of the currently registered meter provider. */
export function instruments(): Instruments {
  const provider = metrics.getMeterProvider();
  if (made?.provider !== provider) made = { provider, instruments: make(provider) };
  return made.instruments;
}

/** True when a meter provider is registered (so recording is worth its attributes). */
export function metricsOn(): boolean {
  return instruments().on;
}

function make(provider: MeterProvider): Instruments {
  const meter = provider.getMeter(INSTRUMENTATION_SCOPE);
  const duration = (spec: { name: string; unit: string }, description: string): Histogram =>
    meter.createHistogram(spec.name, {
      unit: spec.unit,
      description,
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
  const counter = (spec: { name: string; unit: string }, description: string): Counter =>
    meter.createCounter(spec.name, { unit: spec.unit, description });
  return {
    on: meter !== createNoopMeter(),
    requestDuration: duration(METRIC.requestDuration, 'Duration of A2A operations served'),
    requests: counter(METRIC.requests, 'A2A operations served, by outcome'),
    activeStreams: meter.createUpDownCounter(METRIC.activeStreams.name, {
      unit: METRIC.activeStreams.unit,
      description: 'Open streaming subscriptions (SendStreamingMessage, SubscribeToTask)',
    }),
    clientDuration: duration(METRIC.clientDuration, "Duration of A2A operations Concord's client called"),
    taskTransitions: counter(METRIC.taskTransitions, 'Task state changes, by the state entered'),
    pushDeliveries: counter(METRIC.pushDeliveries, 'Push notification delivery attempts, by outcome'),
    storeCommitDuration: duration(METRIC.storeCommitDuration, "Duration of the store's task commits"),
    contractRefusals: counter(METRIC.contractRefusals, 'Messages refused by a contract gate'),
    mandateDecisions: counter(METRIC.mandateDecisions, 'AUMP mandate evaluations, by decision'),
    modelDuration: duration(METRIC.modelDuration, 'Duration of model calls'),
    modelTokens: meter.createHistogram(METRIC.modelTokens.name, {
      unit: METRIC.modelTokens.unit,
      description: 'Tokens used by model calls',
    }),
  };
}

export type { Attributes };
