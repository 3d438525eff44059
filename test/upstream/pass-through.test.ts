// A mounted server spoken to in the 2026-07-28 revision is passed through: its InputRequiredResult
// reaches the client with the server's own keys and is answered on the retry, its tasks are
// followed there (a tool that requires a task included), its protocol errors stay protocol errors,
// and one client's tasks are out of another's reach. The mounted server is a real `mcphost serve
// --transport http` child serving the conformance fixture (test/fixtures/conformance) on 127.0.0.1;
// the proxy is mcphost in-process mounting it (`protocol: 2026-07-28`, `prefix: false`), spoken to
// by SDK clients. The SDK client (2.4.0) cannot receive a `resultType: 'task'` answer (its codec
// rejects it, UNSUPPORTED_RESULT_TYPE, without the result), so the test clients that follow tasks
// read it the way mcphost's own upstream client does (src/kit/mcp/task-results.ts).
import path from 'node:path';
import {
  Client,
  ProtocolError,
  specTypeSchemas,
  withInputRequired,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/client';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carryTaskResults, TASK_RESULT_META_KEY } from '../../src/kit/mcp/task-results.js';
import { TASKS_EXTENSION } from '../../src/server/tasks/store.js';
import { hostInProcess } from '../helpers/in-process.js';
import { startHttp, type HttpServer } from '../helpers/mcp.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { textOf, waitFor, whenListed, writeConfig } from './helpers.js';

const FIXTURE_CONFIG = path.join(REPO, 'test/fixtures/conformance/mcprc.yaml');
const { dir } = tempDir('mcphost-pass-through-');
const loose = z.looseObject({});

let upstream: HttpServer;
let host: Awaited<ReturnType<typeof hostInProcess>>;

beforeAll(async () => {
  upstream = await startHttp(['--config', FIXTURE_CONFIG], { cwd: dir });
  writeConfig(dir, { servers: { conf: { url: upstream.url, prefix: false, protocol: '2026-07-28' } } });
  host = await hostInProcess({ cwd: dir });
}, 30_000);

afterAll(async () => {
  await host?.close();
  await upstream?.stop();
});

/** A 2026-era client of the proxy; `tasks` declares the tasks extension (and reads task answers). */
async function modernClient(capabilities: Record<string, unknown>, tasks = false): Promise<Client> {
  const client = await host.connect('modern', {
    options: { capabilities: { ...capabilities, ...(tasks && { extensions: { [TASKS_EXTENSION]: {} } }) } },
    transport: tasks ? carryTaskResults : undefined,
  });
  await whenListed(client, ['test_input_required_result_multi_round', 'failing_job']);
  return client;
}

/** tools/call by hand: an input-required answer is handed back, not fulfilled by the SDK's driver. */
function callOnce(client: Client, name: string, extra: Record<string, unknown> = {}) {
  return client.request(
    { method: 'tools/call', params: { name, arguments: {}, ...extra } },
    withInputRequired(specTypeSchemas.CallToolResult),
    { allowInputRequired: true },
  ) as Promise<CallToolResult | InputRequiredResult>;
}

/** tools/call that may become a task: the CreateTaskResult, or the result when it did not. */
async function callForTask(client: Client, name: string, args: Record<string, unknown> = {}) {
  const answer = (await client.request({ method: 'tools/call', params: { name, arguments: args } }, loose)) as Record<string, unknown>;
  const created = (answer._meta as Record<string, unknown> | undefined)?.[TASK_RESULT_META_KEY] as Record<string, unknown> | undefined;
  return { created, answer };
}

const tasksRequest = (client: Client, method: 'tasks/get' | 'tasks/update' | 'tasks/cancel', params: Record<string, unknown>) =>
  client.request({ method, params } as never, loose) as Promise<Record<string, unknown>>;

async function until(client: Client, taskId: string, status: string) {
  return waitFor(async () => {
    const task = await tasksRequest(client, 'tasks/get', { taskId });
    return task.status === status ? task : undefined;
  }, `task ${taskId} to be ${status}`);
}

describe('a 2026-era client through the proxy', () => {
  it("gets the mounted server's InputRequiredResult with the server's keys, and answers it round by round", async () => {
    const client = await modernClient({ elicitation: { form: {} } });
    const first = (await callOnce(client, 'test_input_required_result_multi_round')) as InputRequiredResult;
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests ?? {})).toEqual(['step1']);
    expect(first.inputRequests?.step1).toMatchObject({ method: 'elicitation/create', params: { message: 'Step 1: What is your name?' } });
    const second = (await callOnce(client, 'test_input_required_result_multi_round', {
      inputResponses: { step1: { action: 'accept', content: { name: 'Ada' } } },
      requestState: first.requestState,
    })) as InputRequiredResult;
    expect(Object.keys(second.inputRequests ?? {})).toEqual(['step2']);
    const done = (await callOnce(client, 'test_input_required_result_multi_round', {
      inputResponses: { step2: { action: 'accept', content: { color: 'teal' } } },
      requestState: second.requestState,
    })) as CallToolResult;
    expect(textOf(done)).toBe('Multi-round complete for Ada who likes teal');
  });

  it('answers through the SDK driver too: several questions at once, each under its own key', async () => {
    const client = await modernClient({ elicitation: { form: {} }, sampling: {}, roots: {} });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Grace' } }));
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'Hi there' },
      model: 'test-model',
    }));
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] }));
    const result = await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
    expect(textOf(result)).toBe('Name: Grace; Greeting: Hi there; Roots: 2');
  });

  it("sends the mounted server the client's own capabilities: what it lacks is refused with -32021", async () => {
    const bare = await modernClient({});
    const error = await bare.callTool({ name: 'test_missing_capability', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    const sampler = await modernClient({ sampling: {} });
    expect(textOf(await sampler.callTool({ name: 'test_missing_capability', arguments: {} }))).toBe('Success');
  });

  it("runs a mounted tool that requires a task as the server's task, and refuses it without the extension", async () => {
    const client = await modernClient({}, true);
    const { created } = await callForTask(client, 'failing_job');
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await until(client, String(created!.taskId), 'completed');
    expect(done.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('failing_job failed on purpose') }],
    });

    const without = await modernClient({});
    const error = await without.callTool({ name: 'failing_job', arguments: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
  });

  it("passes a task's questions, answers, protocol failure and cancellation through", async () => {
    const client = await modernClient({ elicitation: { form: {} } }, true);
    const confirm = await callForTask(client, 'confirm_delete', { filename: 'notes.txt' });
    const taskId = String(confirm.created!.taskId);
    const waiting = await until(client, taskId, 'input_required');
    const [key] = Object.keys(waiting.inputRequests as Record<string, unknown>);
    await tasksRequest(client, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } });
    expect((await until(client, taskId, 'completed')).result).toMatchObject({ content: [{ type: 'text', text: 'deleted notes.txt' }] });

    const failing = await callForTask(client, 'protocol_error_job');
    const failed = await until(client, String(failing.created!.taskId), 'failed');
    expect(failed.error).toMatchObject({ code: -32603, message: expect.stringContaining('failed at the protocol level on purpose') });

    const slow = await callForTask(client, 'slow_compute', { seconds: 30 });
    const slowId = String(slow.created!.taskId);
    await tasksRequest(client, 'tasks/cancel', { taskId: slowId });
    expect((await tasksRequest(client, 'tasks/get', { taskId: slowId })).status).toBe('cancelled');
  });

  it("keeps one client's tasks out of another's reach, even given the id", async () => {
    const alice = await modernClient({}, true);
    const bob = await modernClient({}, true);
    const { created } = await callForTask(alice, 'slow_compute', { seconds: 3, label: 'alice' });
    const taskId = String(created!.taskId);
    for (const method of ['tasks/get', 'tasks/cancel'] as const) {
      const error = await tasksRequest(bob, method, { taskId }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('unknown task') });
    }
    // Bob's cancel reached nothing: Alice's task runs to its end.
    const done = await until(alice, taskId, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'computed alice after 3 s' }] });
  });
});

describe('a 2025-era client through the proxy', () => {
  it("answers the 2026-era server's questions as requests", async () => {
    const client = await host.connect('legacy', { options: { capabilities: { elicitation: { form: {} } } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    await whenListed(client, ['test_input_required_result_elicitation']);
    const result = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    expect(textOf(result)).toBe('Hello, Ada!');
    expect(asked).toEqual(['What is your name?']);
  });

  it("gets a mounted resource's updates, which the 2026-era server sends on a subscriptions/listen stream", async () => {
    const client = await host.connect('legacy');
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await whenListed(client, ['test_simple_text']);
    await client.subscribeResource({ uri: 'test://watched-resource' });
    // The fixture changes it every 3 s while someone subscribes.
    await waitFor(() => updated.length > 0, 'an update of test://watched-resource', 10_000);
    expect(updated[0]).toBe('test://watched-resource');
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
  });
});
