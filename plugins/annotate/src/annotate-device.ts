import {buildScreenModel, rememberScreen, type ScreenModel, type ToolContext} from '@arc-cli/core'

import {resolveAnnotateOptions, type AnnotateRequest} from './annotate-options.js'
import type {AnnotatedImage} from './annotate-screenshot.js'
import {makeAnnotation} from './image-work.js'

/**
 * Annotates what the context's device shows now. screen-state passes the model it already built (and remembered),
 * so the TSV and the image describe the same dump; warnings go to ctx.warn (stderr on the CLI). A read made here is
 * remembered as screen-state's is (when the context has a device state): the labels and the map show its ids, and an
 * agent that only looks at pictures clicks them, so they get the stale-id check ("Follow" never taps "Following").
 */
export async function annotateDevice(
  ctx: Pick<ToolContext, 'driver' | 'config' | 'configFile' | 'warn' | 'progress'> &
    Partial<Pick<ToolContext, 'state' | 'callerState'>>,
  request: AnnotateRequest,
  model?: ScreenModel
): Promise<AnnotatedImage> {
  // Options first: a bad --style or config fails before the device is touched.
  const options = resolveAnnotateOptions(ctx, request)
  if (!model) ctx.progress(`reading the screen of ${ctx.driver.serial}`)
  const screenModel = model ?? buildScreenModel(await ctx.driver.captureScreen())
  ctx.progress(`taking a screenshot of ${ctx.driver.serial}`)
  // The marks are drawn on the image scaled to the output size, at the dump's coordinates mapped onto it
  // (screenMapping, any scale): a PNG already at that size, scaled on the phone by the helper, draws the same image
  // and crosses USB a tenth the size. A PNG, not a JPEG: the result is encoded once, after drawing. A driver without
  // the helper returns the full-size PNG, scaled here as before.
  const png = await ctx.driver.screenshot(options.maxSize > 0 ? {maxSize: options.maxSize, format: 'png'} : undefined)
  const image = await makeAnnotation(screenModel, png, options, ctx.driver.serial)
  for (const warning of image.warnings) ctx.warn(warning)
  if (!model && ctx.state) await rememberScreen({state: ctx.state, callerState: ctx.callerState}, screenModel)
  return image
}
