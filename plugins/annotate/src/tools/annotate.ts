import path from 'node:path'

import {defineTool, importNativeModule, InvalidInputError, type ToolContext, z} from '@arc-cli/core'

import {annotateInput} from '../annotate-options.js'
import type {AnnotatedImage} from '../annotate-screenshot.js'
import type {ImageFormat} from '../style/annotate-config.js'
import {MAX_MARKS} from '../render/marks.js'
import {loadAnnotateDevice} from '../load-bundled.js'
import {formatForOutput} from '../output-format.js'
import {validateTargets, writeFilesAtomically, type OutputFile} from '../write-files.js'

const annotateCliInput = z.object({
  output: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Image file to write (.jpg, .jpeg or .png); - for stdout. Default: <device>_<date>_<time>.<ext> in the current folder'
    ),
  map: z
    .string()
    .min(1)
    .optional()
    .describe('Also write the label map (JSON: label -> id, bounds, rectangles) to this file'),
})

/** Local date and time as a file name can hold them and a person reads them: `2026-11-26_09-30-12`. */
function timestamp(date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}_${p(date.getHours())}-${p(date.getMinutes())}-${p(date.getSeconds())}`
}

/**
 * `<device>_<date>_<time>.jpg` (`emulator-5554_2026-11-26_09-30-12.jpg`, `demo_…`): the device reduced to a safe
 * file-name word (a snapshot path to its folder name, `192.168.1.5:5555` to `192.168.1.5_5555`).
 */
function defaultImageName(serial: string, format: ImageFormat, date = new Date()): string {
  const device =
    path
      .basename(serial.replace(/[\\/]+$/, ''))
      .replace(/[^A-Za-z0-9.-]+/g, '_')
      .replace(/^[._]+/, '') || 'device'
  return `${device}_${timestamp(date)}.${format === 'png' ? 'png' : 'jpg'}`
}

/** Lines an agent reads: one per mark, label then id then screen bounds. */
function markLines(image: AnnotatedImage): string[] {
  return image.map.marks.map((m) => `${m.label}\t${m.id}\t${m.bounds.join(',')}`)
}

/** Size, scale and marks; the CLI puts the `path:` line first when it writes the image (MCP returns it inline). */
function summaryLines(image: AnnotatedImage): string[] {
  const {map} = image
  const skipped =
    map.skipped.over_limit > 0
      ? ` (${map.skipped.over_limit} more left out by maxLabels or the ${MAX_MARKS}-mark limit)`
      : ''
  return [
    `image: ${image.width}x${image.height} ${image.format}, ${image.data.length} bytes`,
    `screen: ${map.screen.width}x${map.screen.height}, scale x=${map.scale.x} y=${map.scale.y}`,
    `marks: ${map.marks.length}${skipped}, style ${map.style}`,
  ]
}

/**
 * Writes an annotated image to `file` (relative to ctx.cwd) or, without one, to <device>_<date>_<time>.<ext> in
 * ctx.cwd, with any `extra` files: all or none. `input` names the flag in an error. Returns the image's absolute
 * path. `arc annotate` and `arc screen-state --screenshot` both save through here.
 */
export async function saveImage(
  ctx: Pick<ToolContext, 'cwd' | 'driver'>,
  image: Pick<AnnotatedImage, 'data' | 'format'>,
  file: string | undefined,
  input: string,
  extra: OutputFile[] = []
): Promise<string> {
  const target = path.resolve(ctx.cwd, file ?? defaultImageName(ctx.driver.serial, image.format))
  await writeFilesAtomically([{path: target, data: image.data, input}, ...extra])
  return target
}

export const annotate = defineTool({
  name: 'annotate_screenshot',
  title: 'Save a screenshot with a labelled box on every on-screen element',
  description: [
    'Takes a screenshot and draws a box and a label on every element get_screen_state lists as on screen',
    '(Set-of-Mark). Labels show the element id hash (node_a3f2kq -> a3f2kq) or a number with the som preset; the map',
    'turns each label back into the element id and its bounds in screen pixels. Labels never cover each other.',
  ].join(' '),
  kind: 'read',
  needs: {screen: 'read'},
  group: 'screen',
  input: annotateInput,
  cli: {
    id: 'annotate',
    input: annotateCliInput,
    char: {output: 'o'},
    examples: [
      '<%= config.bin %> <%= command.id %> --device demo -o screen.jpg',
      '<%= config.bin %> <%= command.id %> --style som --map marks.json',
      '<%= config.bin %> <%= command.id %> --format png --max-size 1200 -o - > screen.png',
    ],
  },
  async handler(ctx, input) {
    const cli = input
    if (cli.output === '-' && cli.map === '-')
      throw new InvalidInputError('--map: cannot be - (stdout holds the image)')
    if (cli.output === '-' && ctx.json) {
      throw new InvalidInputError(
        '--json cannot be used with -o - (both write to stdout); use --map FILE for the map',
        {
          details: {input: 'output'},
        }
      )
    }
    // Loaded here, not at the top: importing the tool (every arc start-up does) must not load the canvas library.
    const {annotateDevice} = await importNativeModule(loadAnnotateDevice, 'arc annotate', '@napi-rs/canvas')
    // Every target and the format are checked before the device is touched, so a mistake costs nothing.
    const mapPath = cli.map ? path.resolve(ctx.cwd, cli.map) : undefined
    await validateTargets([
      ...(cli.output && cli.output !== '-' ? [{path: path.resolve(ctx.cwd, cli.output), input: '--output'}] : []),
      ...(mapPath ? [{path: mapPath, input: '--map'}] : []),
    ])
    const format = formatForOutput(cli.output, input.format, '--output')
    const image = await annotateDevice(ctx, {...input, format})

    return {
      text: [...summaryLines(image), 'label\tid\tbounds', ...markLines(image)].join('\n'),
      data: image.map,
      image: {data: image.data, mimeType: image.mimeType},
      // The CLI writes the image (or puts it on stdout) and the map; MCP returns the image inline instead.
      cli: {
        save: async () => {
          const toStdout = cli.output === '-'
          const mapFiles: OutputFile[] = mapPath
            ? [{path: mapPath, data: JSON.stringify(image.map, null, 2) + '\n', input: '--map'}]
            : []
          let imagePath = '-'
          if (toStdout) await writeFilesAtomically(mapFiles)
          else imagePath = await saveImage(ctx, image, cli.output, cli.output ? '--output' : 'output', mapFiles)

          // Absolute, as every file arc writes is announced: a script may run arc from another folder.
          const lines = [`path: ${toStdout ? '(stdout)' : imagePath}`, ...summaryLines(image)]
          if (mapPath) lines.push(`map: ${mapPath}`)
          return {
            text: lines.join('\n'),
            data: {path: imagePath, ...(mapPath ? {map_path: mapPath} : {}), ...image.map},
            ...(toStdout ? {stdout: image.data} : {}),
          }
        },
      },
    }
  },
})
