import path from 'node:path'

import {defineTool, InvalidInputError, z} from '@arc-cli/core'

import {checkOutputFile, writeOutputFile} from './write-output.js'

export const screenrecord = defineTool({
  name: 'screenrecord',
  title: 'Record the screen as video',
  description:
    "Records the screen with the device's screenrecord into an MP4 file on this computer: until Ctrl-C or --time-limit seconds (1-180, Android's own limit), then pulls the video and deletes it from the device. Fails with UNSUPPORTED where the device has no screenrecord. CLI only.",
  kind: 'read',
  needs: {recording: 'read'},
  group: 'screen',
  input: z.object({
    time_limit: z
      .number()
      .int()
      .min(1, 'must be 1 to 180 seconds')
      .max(180, 'must be 1 to 180 seconds')
      .default(180)
      .describe('Longest recording in seconds (1-180)'),
  }),
  interruptible: true,
  cli: {
    id: 'screenrecord',
    input: z.object({
      output: z
        .string({
          error: (issue) =>
            issue.input === undefined ? 'required: the video file to write (-o screen.mp4)' : undefined,
        })
        .min(1)
        .refine((p) => path.extname(p).toLowerCase() === '.mp4', 'the video is MP4: name the file .mp4')
        .describe('MP4 file to write'),
    }),
    char: {output: 'o'},
    only: 'it runs until stopped (up to 180 s, holding the call) and writes an MP4 on the machine arc runs on, at a path the caller picks; an agent could neither stop it nor read the video',
    examples: [
      '<%= config.bin %> <%= command.id %> -o demo.mp4',
      '<%= config.bin %> <%= command.id %> -o demo.mp4 --time-limit 10',
    ],
  },
  async handler(ctx, input) {
    if (input.output === undefined) {
      throw new InvalidInputError(
        'screenrecord writes a file and runs until stopped: use the CLI (`arc screenrecord -o FILE.mp4`)'
      )
    }
    const target = path.resolve(ctx.cwd, input.output)
    // Before the recording, which may be of something that will not happen again.
    await checkOutputFile(target, '--output')
    ctx.progress(`Recording ${ctx.driver.serial} (Ctrl-C to stop, at most ${input.time_limit} s)`)
    const started = Date.now()
    const video = await ctx.driver.screenRecord(input.time_limit, ctx.signal)
    const seconds = Math.round((Date.now() - started) / 100) / 10
    await writeOutputFile(target, video, '--output')
    return {
      text: `Screen recording saved: ${target} (${seconds} s, ${video.length} bytes)`,
      data: {path: target, seconds, bytes: video.length},
    }
  },
})
