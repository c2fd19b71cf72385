import { parentPort, workerData } from 'node:worker_threads';
import { segmentStream } from '../manifest/stream.js';
import { injectStream, type InjectSettings } from './inject.js';
import { thrownOf, type InjectJob, type InjectReply, type InjectWorkerData } from './injectWorkerMessages.js';

/*
 * An inject worker thread (started by injectPool.ts): injects the YAML documents it is sent, one
 * at a time, exactly as the main thread would, and sends back the result or what was thrown.
 */

const data = workerData as InjectWorkerData;
const settings: InjectSettings = { ...data.settings, namespaceAnnotations: (ns) => data.namespaces.get(ns) };
const port = parentPort;

port?.on('message', (job: InjectJob) => {
  let reply: InjectReply;
  try {
    const run = injectStream(segmentStream({ name: job.name, text: job.text, lineOffset: job.lineOffset }), settings, data.format);
    reply = { id: job.id, run };
  } catch (e) {
    reply = { id: job.id, thrown: thrownOf(e) };
  }
  port.postMessage(reply);
});
