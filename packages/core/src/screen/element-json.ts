/**
 * The command line's one element shape in `--json`: what `arc screen-state --json` lists per element, and what
 * find, wait, assert and every other command print for an element. snake_case keys, like all of arc's CLI JSON
 * (docs/json.md). MCP tools keep the spec's own shapes (find_elements: contentDescription, booleans).
 */
import {formatFlags} from './node-rules.js'
import type {ScreenElement} from './screen-model.js'

export interface ElementJson {
  id: string
  /** The class's simple name (`Button`). */
  class: string | null
  text: string | null
  desc: string | null
  res_id: string | null
  bounds: {left: number; top: number; right: number; bottom: number}
  /** screen-state's flags: `on`/`off`, `clk`, `lclk`, `foc`, `scr`, `edt`, `ena`, `chk`… */
  flags: string[]
  password?: true
  hint?: string
}

export function screenElementJson(e: ScreenElement): ElementJson {
  return {
    id: e.id,
    class: e.className || null,
    text: e.text || null,
    desc: e.desc || null,
    res_id: e.resId || null,
    bounds: {left: e.bounds[0], top: e.bounds[1], right: e.bounds[2], bottom: e.bounds[3]},
    flags: formatFlags(e.flags).split(','),
    ...(e.node.password ? {password: true as const} : {}),
    ...(e.flags.hint && e.node.hint !== undefined ? {hint: e.node.hint} : {}),
  }
}
