/**
 * Annotation styles. A preset is a complete style; config presets (`annotate.presets.<name>`) extend one and
 * override some keys. Sizes in `dp` are scaled to the image: one dp is the image's short side / 360, the
 * reference width spec 000 scales by, so a label looks the same size on a phone and a tablet image.
 */
export type LabelFormat = 'ref' | 'number' | 'both' | 'type'
/** Which on-screen elements get a mark: the one list the flag, the config and the types use. */
export const MARK_FILTERS = ['all', 'interactive', 'clickable', 'editable'] as const
export type MarkFilter = (typeof MARK_FILTERS)[number]
export type Role = 'button' | 'link' | 'input' | 'other'

export interface AnnotateStyle {
  /** Box outline colour. */
  color: string
  /** Label background; defaults to the box colour (or the role colour with `colorBy: role`). */
  labelColor?: string
  /** Label text colour, or `auto` for white or black, whichever contrasts more with the label background. */
  textColor: string
  /** Box outline width in dp. */
  lineWidth: number
  /** Dash pattern in dp (`[6, 3]`: 6 on, 3 off); empty for solid lines. */
  dash: number[]
  /** Label font size in dp. */
  fontSize: number
  /** Smallest label font in image pixels: the placement fallback shrinks labels down to this, never below. */
  minFontSize: number
  /** Label background opacity, 0..1 (never below 0.55, so text stays readable over any screenshot). */
  opacity: number
  /** Label shape: `pill` (fully rounded ends) or `badge` (small corner radius). */
  labelShape: 'pill' | 'badge'
  /** `ref`: the id hash (`a3f2`); `number`: 1..N; `both`: `7:a3f2`; `type`: class and accessible name. */
  labelFormat: LabelFormat
  /** At most this many marks (interactive elements first); 0 for no limit. */
  maxLabels: number
  /** Which on-screen elements get a mark. */
  only: MarkFilter
  /** `role`: boxes and labels take the colour of the element's role (`roleColors`). */
  colorBy: 'none' | 'role'
  roleColors: Record<Role, string>
  /** Longest label in characters before it is shortened with `…` (the `type` format). */
  maxLabelChars: number
}

export const MIN_LABEL_OPACITY = 0.55

const ROLE_COLORS: Record<Role, string> = {button: '#00a000', link: '#0050ff', input: '#ffd400', other: '#808080'}

export const BUILTIN_PRESETS: Record<string, AnnotateStyle> = {
  // Spec 000: red dashed 2 px boxes, semi-transparent red pills (alpha 180/255), white bold id hashes.
  default: {
    color: '#ff0000',
    textColor: '#ffffff',
    lineWidth: 2,
    dash: [6, 3],
    fontSize: 10,
    minFontSize: 8,
    opacity: 180 / 255,
    labelShape: 'pill',
    labelFormat: 'ref',
    maxLabels: 0,
    only: 'all',
    colorBy: 'none',
    roleColors: ROLE_COLORS,
    maxLabelChars: 24,
  },
  // Spec 001: Set-of-Marks, solid boxes and numbered badges 1..N, at most 50.
  som: {
    color: '#ff0000',
    textColor: '#ffffff',
    lineWidth: 2,
    dash: [],
    fontSize: 11,
    minFontSize: 8,
    opacity: 0.8,
    labelShape: 'badge',
    labelFormat: 'number',
    maxLabels: 50,
    only: 'all',
    colorBy: 'none',
    roleColors: ROLE_COLORS,
    maxLabelChars: 24,
  },
  // Spec 003: colour by role (buttons green, links blue, inputs yellow), labels with the id, type and name. Only
  // what can be acted on gets a mark: a long label for every layout and text would bury the screen.
  'by-type': {
    color: '#808080',
    textColor: 'auto',
    lineWidth: 2,
    dash: [],
    fontSize: 10,
    minFontSize: 9,
    opacity: 0.85,
    labelShape: 'badge',
    labelFormat: 'type',
    maxLabels: 0,
    only: 'interactive',
    colorBy: 'role',
    roleColors: ROLE_COLORS,
    maxLabelChars: 24,
  },
}

export const DEFAULT_PRESET = 'default'
