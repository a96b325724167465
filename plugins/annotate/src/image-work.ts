import {createRequire} from 'node:module'
import {pathToFileURL} from 'node:url'
import {Worker} from 'node:worker_threads'

import {
  ArcError,
  InternalError,
  InvalidInputError,
  offThreadWork,
  type ScreenElement,
  type ScreenModel,
  type ScreenWindow,
  type UiNode,
} from '@arc-cli/core'

import {annotateScreenshot, type AnnotatedImage, type AnnotateOptions} from './annotate-screenshot.js'

/**
 * Where an annotated screenshot is made. By default on the calling thread; where core's offThreadWork() is on
 * (`arc mcp serve`), on one worker thread kept for the process, so the decode, the label placement, the drawing and
 * the encoding (hundreds of milliseconds of CPU on a crowded screen) never hold up the server's event loop: other
 * requests are read and answered meanwhile. The worker runs the same annotateScreenshot on a copy of what it needs
 * of the screen model; its errors come back as the same error classes.
 */
export async function makeAnnotation(
  model: ScreenModel,
  png: Buffer,
  options: AnnotateOptions,
  source: string
): Promise<AnnotatedImage> {
  const holder = globalThis as HoldHolder
  const hold = holder[HELD]
  holder[HELD] = undefined
  const withHold = hold ? {...options, hold} : options
  if (!offThreadWork()) return annotateScreenshot(model, png, withHold, source)
  return imageWorker().run({model: workerModel(model), png, options: withHold, source})
}

// On globalThis, so a test's copy of this module and the tools' copy share it (as the device section does).
const HELD = Symbol.for('arc.annotate.heldNext')
type HoldHolder = {[HELD]?: Int32Array}

/**
 * Tests only: the next annotation blocks the thread that makes it right after label placement, as CPU work would,
 * until release() (or 5 s). `arrived` resolves once it got there; `held()` is true until it was released or ran
 * out. A test shows with it which thread's event loop an annotation takes.
 */
export function holdNextAnnotation(): {arrived: Promise<void>; held(): boolean; release(): void} {
  const gate = new Int32Array(new SharedArrayBuffer(8))
  ;(globalThis as HoldHolder)[HELD] = gate
  const arrived = (async () => {
    while (Atomics.load(gate, 1) === 0) await new Promise((resolve) => setTimeout(resolve, 5))
  })()
  return {
    arrived,
    held: () => Atomics.load(gate, 0) === 0,
    release() {
      Atomics.compareExchange(gate, 0, 0, 1)
      Atomics.notify(gate, 0)
    },
  }
}

/**
 * What annotateScreenshot reads of a model: the screen, the windows and the elements, each node without its
 * subtree (a copy to a worker costs what it holds; the hierarchy of a large dump is most of it).
 */
function workerModel(model: ScreenModel): ScreenModel {
  const bare = (node: UiNode): UiNode => ({...node, children: [], parent: undefined})
  const windows = new Map<ScreenWindow, ScreenWindow>(
    model.windows.map((w) => [w, {...w, root: bare(w.root), elements: []}])
  )
  const elements: ScreenElement[] = model.elements.map((e) => ({
    ...e,
    node: bare(e.node),
    window: windows.get(e.window) ?? {...e.window, root: bare(e.window.root), elements: []},
  }))
  return {
    ...model,
    windows: [...windows.values()],
    elements,
    byId: new Map(),
    hierarchy: {...model.hierarchy, windows: [], listedWindows: undefined},
  }
}

export interface WorkerJob {
  id: number
  model: ScreenModel
  png: Buffer
  options: AnnotateOptions
  source: string
}

export type WorkerAnswer =
  | {id: number; image: Omit<AnnotatedImage, 'data'> & {data: Uint8Array}}
  | {id: number; error: {code?: string; message: string; actions?: string[]; details?: Record<string, unknown>}}

/** The error the worker reported, as the class the same failure throws on the calling thread. */
function rebuildError(error: {
  code?: string
  message: string
  actions?: string[]
  details?: Record<string, unknown>
}): ArcError {
  const options = {actions: error.actions, details: error.details}
  if (error.code === 'INVALID_INPUT') return new InvalidInputError(error.message, options)
  return new InternalError(error.message, options)
}

class ImageWorker {
  private worker: Worker | undefined
  private nextId = 1
  private readonly pending = new Map<number, {resolve(image: AnnotatedImage): void; reject(error: unknown): void}>()

  run(job: Omit<WorkerJob, 'id'>): Promise<AnnotatedImage> {
    const worker = this.start()
    const id = this.nextId++
    return new Promise<AnnotatedImage>((resolve, reject) => {
      this.pending.set(id, {resolve, reject})
      // Kept alive only while it has work: an idle worker never holds the process open.
      worker.ref()
      worker.postMessage({...job, id} satisfies WorkerJob)
    })
  }

  private start(): Worker {
    if (this.worker) return this.worker
    const worker = import.meta.url.endsWith('.ts')
      ? // The sources, under development and in the tests: a worker does not inherit tsx's loader, so it registers it.
        // tsx is named by the URL this module resolves it to: an eval worker resolves bare names from the current
        // folder, where tsx need not be.
        new Worker(
          `import(${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./image-worker.ts', import.meta.url).href)}) })`,
          {eval: true}
        )
      : new Worker(new URL('./image-worker.js', import.meta.url))
    worker.unref()
    worker.on('message', (answer: WorkerAnswer) => {
      const waiting = this.pending.get(answer.id)
      if (!waiting) return
      this.pending.delete(answer.id)
      if (this.pending.size === 0) worker.unref()
      if ('error' in answer) waiting.reject(rebuildError(answer.error))
      else {
        const {data} = answer.image
        waiting.resolve({...answer.image, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength)})
      }
    })
    const fail = (error: unknown) => {
      if (this.worker === worker) this.worker = undefined
      const calls = [...this.pending.values()]
      this.pending.clear()
      const reason = error instanceof Error ? error.message : String(error)
      for (const call of calls) call.reject(new InternalError(`the image worker stopped: ${reason}`))
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(`it exited with status ${code}`))
    this.worker = worker
    return worker
  }
}

/**
 * One image worker per process, kept on globalThis: the built `arc mcp serve` runs this module twice, once from the
 * plugin's bundle (annotate_screenshot, load-bundled.ts) and once from its ES modules (get_screen_state's screenshot
 * imports the plugin's entry), and each copy would otherwise start a worker of its own with its own canvas.
 */
const WORKER = Symbol.for('arc.annotate.imageWorker')
type WorkerHolder = {[WORKER]?: ImageWorker}

function imageWorker(): ImageWorker {
  const holder = globalThis as WorkerHolder
  holder[WORKER] ??= new ImageWorker()
  return holder[WORKER]
}
