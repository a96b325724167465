/**
 * What an app's own code does to one of its edit fields as it is typed into, for the scenario's field rules
 * (scenario.ts `fields`): a TextWatcher that reformats the text after each edit, an InputFilter that keeps the text
 * from being deleted, a TextWatcher that moves the focus on once the field is full. Plain models of what apps do,
 * each with the framework behaviour it rests on; text-fields.ts applies them.
 */
import type {FieldRule} from './scenario.js'

/**
 * `format: group-digits`: after an edit the field's digits are written anew in groups of three with commas (an
 * amount field: "1234" shows "1,234", and "1,234" with a 0 typed at its end shows "12,340"), and the cursor stays
 * behind the digit it was behind. That is what android.telephony.PhoneNumberFormattingTextWatcher.afterTextChanged
 * does for phone numbers: reformat() reads the digits, ignoring the separators, `s.replace(0, s.length(),
 * formatted)` writes them with the separators where the formatter puts them, and `Selection.setSelection(s,
 * rememberedPos)` puts the cursor behind the same digit (libphonenumber AsYouTypeFormatter.getRememberedPosition).
 * Text that is not only digits and commas is left as it is.
 */
export function reformat(rule: FieldRule | undefined, text: string, cursor: number): {text: string; cursor: number} {
  if (rule?.format !== 'group-digits') return {text, cursor}
  const digits = text.replace(/,/g, '')
  if (!/^\d*$/.test(digits)) return {text, cursor}
  const grouped = digits.replace(/\B(?=(?:\d{3})+$)/g, ',')
  const behind = text.slice(0, cursor).replace(/,/g, '').length
  let at = 0
  for (let seen = 0; seen < behind; at++) if (grouped[at] !== ',') seen++
  return {text: grouped, cursor: at}
}

/**
 * `keepsText`: the field's delete keys change nothing. An app's InputFilter does that when, for an edit that removes
 * text (an empty `source`), it returns the removed part of `dest` (android.text.InputFilter.filter: the returned
 * CharSequence replaces what the edit would have put there), so every delete puts back what it removed.
 */
export function keepsText(rule: FieldRule | undefined): boolean {
  return rule?.keepsText === true
}

/**
 * `focusNext`: the resource-id of the field the app moves the focus to once this field holds `after` characters or
 * more, else undefined. A TextWatcher's afterTextChanged runs after every edit (TextView.sendAfterTextChanged), that
 * is after every key event `input text` injects (one per character: InputShellCommand.sendText), and a
 * `next.requestFocus()` there moves the focus at once (View.requestFocus), so the keys after it go to that field.
 */
export function focusMoveDue(rule: FieldRule | undefined, text: string): string | undefined {
  const next = rule?.focusNext
  return next && [...text].length >= next.after ? next.to : undefined
}
