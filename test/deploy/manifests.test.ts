// The compose file and the Kubernetes manifests are not run here (no docker engine, no cluster), so
// they are checked as far as this machine allows: the nginx configs they carry equal a fresh render
// of the template the replica test runs for real; docker-compose (Debian's, from .ci/run) validates
// the compose file against its schema; every Kubernetes object is type-checked against the API's
// own types (kubernetes-types, generated from the Kubernetes OpenAPI spec: an unknown or misspelt
// field, a wrong type or a missing required field fails); and the parts that must agree do: probes
// on /health at the container's port, Services selecting the pods, replica ids nginx routes by.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { renderNginxConf, retrySafeTools } from '../../deploy/nginx/render.js';
import { isolatedEnv } from '../helpers/cli.js';
import { BIN, REPO } from '../helpers/paths.js';

const DEPLOY = path.join(REPO, 'deploy');
const read = (rel: string) => readFileSync(path.join(DEPLOY, rel), 'utf8');
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function docs(rel: string): Doc[] {
  return parseAllDocuments(read(rel), { merge: true }).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS() as Doc;
  });
}

/** The retry-safe tools of the shipped config, as `mcphost tools --json` lists them (without the env's PoB settings). */
function shippedTools(): string[] {
  const env = Object.fromEntries(Object.entries(isolatedEnv(REPO)).filter(([k]) => !k.startsWith('POB_'))) as NodeJS.ProcessEnv;
  const out = execFileSync(process.execPath, [BIN, 'tools', '--json', '--config', path.join(DEPLOY, 'compose/mcprc.yaml')], { env });
  return retrySafeTools(JSON.parse(out.toString()));
}

describe('deploy/compose', () => {
  it('carries the nginx config a fresh render gives for its three replicas', () => {
    const expected = renderNginxConf({
      replicas: [1, 2, 3].map((i) => ({ id: `r${i}`, address: `mcphost-r${i}:7010` })),
      listen: '8080',
      tools: shippedTools(),
      resolver: '127.0.0.11',
      stdio: true,
    });
    expect(read('compose/nginx.conf')).toBe(expected);
  });

  it('gives each replica the replica id nginx routes by, the shared volume and a /health check', () => {
    const [compose] = docs('compose/compose.yaml');
    const replicas = Object.entries(compose.services as Record<string, Doc>).filter(([name]) => name.startsWith('mcphost-'));
    expect(replicas.map(([name, s]) => [name, s.environment.MCPHOST_REPLICA_ID])).toEqual([
      ['mcphost-r1', 'r1'],
      ['mcphost-r2', 'r2'],
      ['mcphost-r3', 'r3'],
    ]);
    for (const [, s] of replicas) {
      expect(s.volumes).toContain('builds:/var/lib/mcphost/builds');
      // One requestState seal for all: a retry may land on any replica.
      expect(s.environment.MCPHOST_STATE_KEY).toMatch(/^\$\{MCPHOST_STATE_KEY:\?/);
      expect(s.healthcheck.test.join(' ')).toContain('http://127.0.0.1:7010/health');
    }
  });

  it.skipIf(spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status !== 0)(
    'is a valid compose file (docker-compose config)',
    () => {
      const r = spawnSync('docker-compose', ['-f', path.join(DEPLOY, 'compose/compose.yaml'), 'config', '-q'], {
        env: { ...process.env, MCPHOST_TOKEN: 'test-token', MCPHOST_STATE_KEY: 'k'.repeat(64) },
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    },
  );
});

describe('deploy/kubernetes', () => {
  const all = ['namespace.yaml', 'mcphost.yaml', 'nginx.yaml'].flatMap((f) => docs(`kubernetes/${f}`).map((d) => ({ file: f, doc: d })));
  const find = (kind: string, name: string) => all.find((x) => x.doc.kind === kind && x.doc.metadata.name === name)!.doc;

  it('type-checks every object against the Kubernetes API types', () => {
    const types: Record<string, [string, string]> = {
      Namespace: ['core/v1', 'Namespace'],
      Service: ['core/v1', 'Service'],
      ConfigMap: ['core/v1', 'ConfigMap'],
      PersistentVolumeClaim: ['core/v1', 'PersistentVolumeClaim'],
      StatefulSet: ['apps/v1', 'StatefulSet'],
      Deployment: ['apps/v1', 'Deployment'],
    };
    const dir = mkdtempSync(path.join(tmpdir(), 'mcphost-k8s-'));
    const file = path.join(dir, 'manifests.ts');
    const lines = all.map(({ doc }, i) => {
      const [group, type] = types[doc.kind] ?? ['core/v1', `Unknown${doc.kind}`];
      return `export const o${i} = ${JSON.stringify(doc)} satisfies import('kubernetes-types/${group}').${type};`;
    });
    writeFileSync(file, lines.join('\n'));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      typeRoots: [],
      types: [],
      skipLibCheck: true,
      lib: ['lib.es2022.d.ts'],
      baseUrl: REPO,
      paths: { 'kubernetes-types/*': [path.join(REPO, 'node_modules/kubernetes-types/*')] },
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
    expect(all.length).toBe(9);
  });

  it('probes /health on the container port, and the Services select the pods on it', () => {
    const sts = find('StatefulSet', 'mcphost');
    const pod = sts.spec.template;
    const [container] = pod.spec.containers;
    expect(container.ports).toEqual([{ name: 'mcp', containerPort: 7010 }]);
    for (const probe of [container.readinessProbe, container.livenessProbe])
      expect(probe.httpGet).toEqual({ path: '/health', port: 'mcp' });
    expect(sts.spec.selector.matchLabels).toEqual(pod.metadata.labels);
    for (const name of ['mcphost', 'mcphost-pods']) {
      const svc = find('Service', name);
      expect(svc.spec.selector).toEqual(pod.metadata.labels);
      expect(svc.spec.ports[0].targetPort).toBe('mcp');
    }
    expect(find('Service', 'mcphost-pods').spec.clusterIP).toBe('None');
    expect(sts.spec.serviceName).toBe('mcphost-pods');
    // The replica id is the pod's name; the build store is one shared claim.
    expect(container.env.find((e: Doc) => e.name === 'MCPHOST_REPLICA_ID').valueFrom.fieldRef.fieldPath).toBe('metadata.name');
    expect(container.env.find((e: Doc) => e.name === 'MCPHOST_STATE_KEY').valueFrom.secretKeyRef).toEqual({
      name: 'mcphost-state-key',
      key: 'key',
    });
    expect(pod.spec.volumes.find((v: Doc) => v.name === 'builds').persistentVolumeClaim.claimName).toBe('mcphost-builds');
    expect(find('PersistentVolumeClaim', 'mcphost-builds').spec.accessModes).toEqual(['ReadWriteMany']);
  });

  it('carries the nginx config a fresh render gives for the StatefulSet’s pods', () => {
    const sts = find('StatefulSet', 'mcphost');
    const expected = renderNginxConf({
      replicas: Array.from({ length: sts.spec.replicas }, (_, i) => ({
        id: `mcphost-${i}`,
        address: `mcphost-${i}.mcphost-pods.mcphost.svc.cluster.local:7010`,
      })),
      pool: ['mcphost.mcphost.svc.cluster.local:7010'],
      listen: '8080',
      tools: shippedTools(),
      resolver: 'kube-dns.kube-system.svc.cluster.local',
      stdio: true,
    });
    expect(find('ConfigMap', 'mcphost-nginx').data['nginx.conf']).toBe(expected);
  });
});
