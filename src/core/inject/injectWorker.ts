import { parentPort, workerData } from 'node:worker_threads';
import { segmentStream } from '../manifest/stream.js';
import { injectStream, type InjectSettings } from './inject.js';
import { runBatch } from './batch.js';
import { thrownOf, type InjectJob, type InjectReply, type InjectWorkerData, type NamespacesMessage } from './injectWorkerMessages.js';

/*
 * An inject worker thread (started by injectPool.ts): injects the batches of YAML documents it is
 * sent exactly as the main thread would (batch.ts), and sends back each batch's result and what
 * the document after it threw, if one did.
 */

const data = workerData as InjectWorkerData;
let namespaces: NamespacesMessage['namespaces'] = new Map();
const settings: InjectSettings = { ...data.settings, namespaceAnnotations: (ns) => namespaces.get(ns) };
const port = parentPort;
const encoder = new TextEncoder();

port?.on('message', (message: InjectJob | NamespacesMessage) => {
  if ('namespaces' in message) {
    namespaces = message.namespaces;
    return;
  }
  const { run, ...rest } = runBatch(
    message.docs.map((doc) => segmentStream({ name: message.name, text: doc.text, lineOffset: doc.lineOffset })),
    (stream) => injectStream(stream, settings, data.format),
  );
  // The text goes back as UTF-8 bytes whose buffer is moved to the main thread: no copy there, and
  // no large strings for its garbage collector.
  const bytes = run.output && encoder.encode(run.output.text);
  const reply: InjectReply = { id: message.id, run: { ...run, output: run.output && bytes && { format: run.output.format, bytes } } };
  if ('thrown' in rest) reply.thrown = thrownOf(rest.thrown);
  port.postMessage(reply, bytes ? [bytes.buffer] : []);
});
