"""Reads one kind of event from a JFR recording, for jfr_top.py and jfr_alloc.py.

`events(recording, "jdk.ExecutionSample")` runs the JDK's `jfr print` and yields, per event,
its top-level fields as raw text (name -> value after " = ") and its stack frames, innermost
first, as "package.Class.method" names.
"""
import re
import shutil
import subprocess

STACK_DEPTH = 64
FIELD = re.compile(r"^  (\w+) = (.*)$")
FRAME = re.compile(r"^\s+([\w$.<>/]+)\(.*\)\s+line:")


def events(recording, event, timeout=600):
    jfr = shutil.which("jfr") or "jfr"
    proc = subprocess.run([jfr, "print", "--events", event, "--stack-depth", str(STACK_DEPTH),
                           recording], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise SystemExit("jfr print failed: " + proc.stderr.strip())
    fields, frames, in_stack = {}, [], False
    for line in proc.stdout.splitlines():
        if in_stack:
            if line.strip() == "]":
                in_stack = False
            else:
                f = FRAME.match(line)
                if f:
                    frames.append(f.group(1))
        elif line.startswith(event + " {"):
            fields, frames = {}, []
        elif line == "}":
            yield fields, frames
        elif "stackTrace = [" in line:
            in_stack = True
        else:
            m = FIELD.match(line)
            if m:
                fields[m.group(1)] = m.group(2)
