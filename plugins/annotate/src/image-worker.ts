/**
 * The image worker's thread (image-work.ts starts it): makes each annotated screenshot it is sent with the same
 * annotateScreenshot the calling thread would run, one at a time, and answers with the image or the error.
 */
import {parentPort} from 'node:worker_threads'

import {annotateScreenshot} from './annotate-screenshot.js'
import type {WorkerAnswer, WorkerJob} from './image-work.js'

const port = parentPort
if (!port) throw new Error('image-worker.ts runs only as a worker thread (image-work.ts starts it)')

port.on('message', (job: WorkerJob) => {
  // A Buffer arrives as a Uint8Array: view the same bytes as one again.
  const png = Buffer.from(job.png.buffer, job.png.byteOffset, job.png.byteLength)
  annotateScreenshot(job.model, png, job.options, job.source).then(
    (image) => port.postMessage({id: job.id, image} satisfies WorkerAnswer),
    (error: unknown) => {
      const e = error as {code?: unknown; message?: unknown; actions?: unknown; details?: unknown}
      port.postMessage({
        id: job.id,
        error: {
          code: typeof e.code === 'string' ? e.code : undefined,
          message: typeof e.message === 'string' ? e.message : String(error),
          actions: Array.isArray(e.actions) ? (e.actions as string[]) : undefined,
          details:
            typeof e.details === 'object' && e.details !== null ? (e.details as Record<string, unknown>) : undefined,
        },
      } satisfies WorkerAnswer)
    }
  )
})
