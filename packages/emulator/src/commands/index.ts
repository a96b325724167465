import {am} from './am.js'
import {appProcess} from './app-process.js'
import {cmd} from './cmd.js'
import {dumpsys} from './dumpsys.js'
import {flock} from './flock.js'
import {cat, chmod, df, ln, ls, mkdir, mv, readlink, realpath, rm, rmdir, touch} from './files.js'
import {getevent, sendevent} from './getevent.js'
import {ime} from './ime.js'
import {input} from './input.js'
import {logcat} from './logcat.js'
import {date, id, pidof, sleep, whoami} from './misc.js'
import {monkey} from './monkey.js'
import {pm} from './pm.js'
import {getprop, setprop, settings} from './properties.js'
import {screencap} from './screencap.js'
import {screenrecord} from './screenrecord.js'
import {grep, head, tail, wc} from './text.js'
import type {DeviceCommand} from './types.js'
import {uiautomator} from './uiautomator.js'
import {wm} from './wm.js'

/**
 * The device's programs: the only names on the emulated shell's PATH. Shell builtins (echo, printf, test, cd,
 * exit…) run inside the device's sh itself and are not recorded as commands.
 */
export const COMMANDS: Record<string, DeviceCommand> = {
  am,
  app_process: appProcess,
  cat,
  chmod,
  cmd,
  df,
  date,
  dumpsys,
  flock,
  getevent,
  getprop,
  grep,
  head,
  id,
  ime,
  input,
  ln,
  logcat,
  ls,
  mkdir,
  monkey,
  mv,
  pidof,
  pm,
  readlink,
  realpath,
  rm,
  rmdir,
  screencap,
  sendevent,
  screenrecord,
  setprop,
  settings,
  sleep,
  tail,
  touch,
  uiautomator,
  wc,
  whoami,
  wm,
}
