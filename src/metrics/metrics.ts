// `GET /metrics`: what the host is doing, in the Prometheus text format, made by prom-client on a
// registry of its own (never the library's global one, so two hosts in one process, as tests run
// them, do not mix). Tool calls are counted as they finish (Registry.onCall); everything else —
// backends up or down, sessions, the gauges backends publish (pob's queue) — is read at scrape time.
import { setTimeout as sleep } from 'node:timers/promises';
import { Counter, Gauge, Histogram, Registry as PromRegistry, collectDefaultMetrics } from 'prom-client';
import type { BackendHost } from '../registry/backend-host.js';
import type { Registry } from '../registry/registry.js';
import { clientLabel, outcomeKind } from '../audit/outcome.js';

export interface MetricsSources {
  /** 2025-era HTTP sessions open now. */
  sessions(): number;
  /** A backend's health, as /health shares it (a check may start processes: it is cached there). */
  health(host: BackendHost): Promise<{ ok: boolean }>;
}

export interface HostMetrics {
  contentType: string;
  text(): Promise<string>;
  close(): void;
}

/** How long a scrape waits for the catalog before it leaves pruning to the next scrape. */
const PRUNE_WAIT_MS = 1000;

// Tool calls span a microsecond echo to a minute-long PoB calculation.
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** A metric-name-safe form of a plugin's name and its gauge's (`exile-hud` → `exile_hud`). */
function metricPart(text: string): string {
  return text.replace(/[^a-zA-Z0-9_]/g, '_');
}

export function createMetrics(registry: Registry, sources: MetricsSources): HostMetrics {
  const prom = new PromRegistry();
  collectDefaultMetrics({ register: prom, prefix: 'mcphost_' });
  const labelNames = ['tool', 'backend'] as const;
  const calls = new Counter({ name: 'mcphost_tool_calls_total', help: 'Tool calls finished', labelNames, registers: [prom] });
  const errors = new Counter({
    name: 'mcphost_tool_errors_total',
    help: 'Tool calls that ended in an error result, by kind (invalid_arguments, tool_error, timeout, cancelled, unavailable, invalid_output, refused, policy, limit)',
    labelNames: [...labelNames, 'kind'],
    registers: [prom],
  });
  const duration = new Histogram({
    name: 'mcphost_tool_call_duration_seconds',
    help: 'Tool call latency, from the arguments check to the result',
    labelNames,
    buckets: BUCKETS,
    registers: [prom],
  });
  new Gauge({
    name: 'mcphost_backend_up',
    help: 'Whether a backend is healthy (1) or not (0), by its health check',
    labelNames: ['backend'],
    registers: [prom],
    async collect() {
      this.reset();
      const reports = await Promise.all(
        registry.hosts.map(async (h) => [h.name, await sources.health(h).catch(() => ({ ok: false }))] as const),
      );
      for (const [backend, report] of reports) this.set({ backend }, report.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: 'mcphost_sessions',
    help: '2025-era HTTP sessions open (2026-era requests are stateless and not counted)',
    registers: [prom],
    collect() {
      this.set(sources.sessions());
    },
  });

  const byClient = new Counter({
    name: 'mcphost_client_calls_total',
    help: 'Tool calls by client (a named client, else token, oauth, anonymous or local) and outcome (policy, limit, transport, jsonrpc, tool_error, success)',
    labelNames: ['client', 'outcome'],
    registers: [prom],
  });
  const clientDuration = new Histogram({
    name: 'mcphost_client_call_duration_seconds',
    help: 'Tool call latency by client',
    labelNames: ['client'],
    buckets: BUCKETS,
    registers: [prom],
  });

  /** The label sets each tool's series were made with, so that they can be removed with it. */
  const series = new Map<string, { backend: string; kinds: Set<string> }>();
  const stop = registry.onCall(({ tool, plugin, durationMs, outcome, client, kind }) => {
    // Reads and prompts are in the audit trail; these count tool calls.
    if (kind !== undefined) return;
    const labels = { tool, backend: plugin };
    calls.inc(labels);
    duration.observe(labels, durationMs / 1000);
    const seen = series.get(tool) ?? { backend: plugin, kinds: new Set<string>() };
    series.set(tool, seen);
    if (outcome.error) {
      errors.inc({ ...labels, kind: outcome.error.kind });
      seen.kinds.add(outcome.error.kind);
    }
    // Client labels are the named clients' names and a few kinds: they stay few, and are never removed.
    const label = clientLabel(client?.identity);
    byClient.inc({ client: label, outcome: outcomeKind(outcome) });
    clientDuration.observe({ client: label }, durationMs / 1000);
  });

  /**
   * A tool that left the catalog (a mounted server renamed it, its backend was removed) takes its
   * series along: otherwise a server that renames its tools grows /metrics without end. A backend
   * that lists nothing right now (down) keeps its tools' series until it is back.
   */
  const prune = async () => {
    if (series.size === 0) return;
    const listed = await Promise.race([registry.tools().catch(() => undefined), sleep(PRUNE_WAIT_MS, undefined, { ref: false })]);
    if (!listed) return; // a backend still starting: prune at a later scrape
    const names = new Set(listed.map((t) => t.publicName));
    const listing = new Set(listed.map((t) => t.plugin));
    const present = new Set(registry.hosts.map((h) => h.name));
    for (const [tool, { backend, kinds }] of series) {
      if (names.has(tool) || (present.has(backend) && !listing.has(backend))) continue;
      const labels = { tool, backend };
      calls.remove(labels);
      duration.remove(labels);
      for (const kind of kinds) errors.remove({ ...labels, kind });
      series.delete(tool);
    }
  };

  /** The backends' own gauges, registered when first seen (a backend publishes one when it starts using it). */
  const published = new Map<string, Gauge | undefined>();
  const syncGauges = () => {
    for (const g of registry.gauges()) {
      const name = `mcphost_${metricPart(g.plugin)}_${metricPart(g.name)}`;
      if (published.has(name)) continue;
      try {
        published.set(
          name,
          new Gauge({
            name,
            help: `${g.help} (published by backend ${g.plugin})`,
            registers: [prom],
            collect() {
              // The latest registration under this name (a restarted backend publishes it again).
              const current = registry.gauges().find((x) => x.plugin === g.plugin && x.name === g.name);
              const value = current?.read();
              if (typeof value === 'number' && Number.isFinite(value)) this.set(value);
              else this.reset();
            },
          }),
        );
      } catch {
        published.set(name, undefined); // a name that clashes with one of the host's: not exported
      }
    }
  };

  return {
    contentType: prom.contentType,
    async text() {
      syncGauges();
      await prune();
      return prom.metrics();
    },
    close() {
      stop();
      prom.clear();
    },
  };
}
