import { parentPort, workerData } from 'node:worker_threads';
import { segmentStream } from '../manifest/stream.js';
import { injectStream, type InjectSettings } from './inject.js';
import { thrownOf, type InjectJob, type InjectReply, type InjectWorkerData, type NamespacesMessage } from './injectWorkerMessages.js';

/*
 * An inject worker thread (started by injectPool.ts): injects the YAML documents it is sent, one
 * at a time, exactly as the main thread would, and sends back the result or what was thrown.
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
  const job = message;
  let reply: InjectReply;
  const transfer: ArrayBuffer[] = [];
  try {
    const { output, ...rest } = injectStream(segmentStream({ name: job.name, text: job.text, lineOffset: job.lineOffset }), settings, data.format);
    // The text goes back as UTF-8 bytes whose buffer is moved to the main thread: no copy there, and
    // no large strings for its garbage collector.
    const bytes = output && encoder.encode(output.text);
    if (bytes) transfer.push(bytes.buffer as ArrayBuffer);
    reply = { id: job.id, run: { ...rest, output: output && bytes && { format: output.format, bytes } } };
  } catch (e) {
    reply = { id: job.id, thrown: thrownOf(e) };
  }
  port.postMessage(reply, transfer);
});
