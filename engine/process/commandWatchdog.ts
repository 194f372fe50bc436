import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Writable } from 'node:stream';
import { engineId } from './engineIdentity.js';
import { commandMarkerVariable } from './processTable.js';

/**
 * The watchdog's whole program, in POSIX sh so it needs nothing the machine may lack. It reads lines
 * `+<pgid>` (a command started) and `-<pgid>` (it ended) until its stdin closes — which happens when the
 * engine exits, however it exits, SIGKILL included, as the engine holds the only write end. Then it
 * ends what is left: the process groups still listed, and on Linux every process whose environment
 * carries this engine's command marker (double-forked daemons included). SIGTERM, then SIGKILL 2 s later.
 * A group is signalled as `kill -s SIG -- -<pgid>`: dash (Debian's /bin/sh) refuses `kill -TERM -- -<pgid>`
 * ("Illegal number: -"), which left every listed group running. A line that is not a number above 1 is
 * ignored: `-0` is the watchdog's own group and `-1` every process it may signal.
 */
const script = `
id="$1"; var="$2"; groups=" "
while IFS= read -r line; do
  n=\${line#?}
  case "$n" in ''|*[!0-9]*|0|1) continue ;; esac
  case "$line" in
    +*) groups="$groups$n " ;;
    -*) g=" $n "; case "$groups" in *"$g"*) groups="\${groups%%"$g"*} \${groups#*"$g"}" ;; esac ;;
  esac
done
pids=""
if [ -r /proc/self/environ ]; then
  for e in /proc/[0-9]*/environ; do
    p=\${e#/proc/}; p=\${p%/environ}
    [ "$p" = "$$" ] && continue
    if tr '\\000' '\\n' < "$e" 2>/dev/null | grep -q "^$var=$id\\\\."; then pids="$pids $p"; fi
  done
fi
[ -z "$pids" ] && [ "$groups" = " " ] && exit 0
for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null; done
for p in $pids; do kill -s TERM "$p" 2>/dev/null; done
sleep 2
for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
for p in $pids; do kill -s KILL "$p" 2>/dev/null; done
exit 0
`;

type Watchdog = ChildProcessByStdio<Writable, null, null>;

let watchdog: Watchdog | null = null;

/**
 * Tells the engine's command watchdog about a command's process group, starting the watchdog with the
 * first command: a process of its own (detached, so a terminal's Ctrl-C to the engine's group leaves it
 * to do its job) that lives as long as the engine and, when the engine dies, ends the commands it left.
 * The engine never waits for it. Not on Windows, whose commands `taskkill /T` stops while their root lives.
 */
export function watchCommand(pgid: number): { ended(): void } {
  const dog = process.platform === 'win32' ? null : running();
  dog?.stdin.write(`+${pgid}\n`);
  return { ended: () => dog?.stdin.write(`-${pgid}\n`) };
}

function running(): Watchdog {
  if (watchdog && watchdog.exitCode === null && !watchdog.stdin.destroyed) return watchdog;
  const started = startWatchdog();
  started.on('error', () => {});
  started.stdin.on('error', () => {});
  started.unref();
  // The pipe must not keep the engine's event loop alive, nor be closed before the engine exits.
  (started.stdin as unknown as { unref?: () => void }).unref?.();
  watchdog = started;
  return started;
}

/**
 * A watchdog process, told of command groups by `+<pgid>` and `-<pgid>` lines on its stdin. Its loop
 * starts no process while the engine runs (a command's end is taken off the list by the shell itself,
 * not by a sed forked each time beside the next model call); the work is all at its end.
 */
export function startWatchdog(): Watchdog {
  return spawn('/bin/sh', ['-c', script, 'rpi-workbench-watchdog', engineId, commandMarkerVariable], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' },
  });
}
