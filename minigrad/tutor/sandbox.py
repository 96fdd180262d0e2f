"""Where a submission's code runs while it is graded: a sandbox, with time and memory limits.

`run_notebook` runs one notebook's code cells in a fresh worker process
(minigrad.tutor.grade_worker) and returns what each cell did.  The worker runs
inside bubblewrap (`bwrap`, Debian's and Fedora's `bubblewrap` package: the
sandbox Flatpak is built on), which any user may start where the kernel allows
unprivileged user namespaces (most Linux distributions; root may always).  For
each submission it makes new namespaces and a file system of their own:

- no network, no other process to see or signal, no new user namespace;
- read-only: the system's /usr, a few files of /etc that programs read (the
  dynamic loader's cache, fonts, time zone), the Python that runs the grader
  and its packages, minigrad itself (worked notebooks left out);
- writable: one fresh folder holding a copy of the submission (and /tmp, 64 MB
  in memory), thrown away afterwards;
- nothing else: not the course folder, the gradebook, the other students'
  files, the teacher's home.

The worker's environment is made from scratch (no token or variable of the
teacher's), its memory and file sizes are capped (setrlimit: address space,
file size, no core files) and each cell has a time limit kept from outside:
the grader reads the worker's events with a deadline and kills the whole
sandbox (a process group, the namespace with it) when a cell runs past it.
A cell that stops the worker (a time limit, os._exit, a crash, too much
output) is marked so, and the worker starts again without that cell, so the
cells after it still run and score.

`sandbox="none"` runs the worker with the same limits but on the grader's own
file system: for a machine without bubblewrap (macOS), inside a container made
for grading only (docs/teaching.md).
"""
import json
import os
import pathlib
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import NamedTuple

SANDBOXES = ("bwrap", "none")
HOME = "/home/student"          # the writable folder, as the sandboxed notebook sees it
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "fonts", "alternatives",
        "passwd", "group", "nsswitch.conf")
_TOP = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")


class SandboxError(RuntimeError):
    """The sandbox could not start: nothing was graded."""


class Limits(NamedTuple):
    """What one submission may use.  Seconds: `cell` for a cell, `graded` for a graded cell
    (a check runs the answer twice: its diagnosis, then its trial), `start` for the worker
    to start, `total` for the whole notebook; bytes: `memory` (address space), `file` (the
    largest file written), `output` (all a run prints); `restarts` after a cell stopped it."""
    cell: float = 10.0
    graded: float = 20.0
    start: float = 60.0
    total: float = 300.0
    memory: int = 4 * 2 ** 30
    file: int = 64 * 2 ** 20
    output: int = 32 * 2 ** 20
    restarts: int = 5


class CellRun(NamedTuple):
    """What one cell did: its outputs (nbformat's), whether it raised, what each check in it
    reported (grade_worker's records), and how the worker ended in it, if it did:
    (reason, detail) with reason "timeout", "exit", "signal", "output" or "not_run"."""
    outputs: list
    error: bool
    checks: list
    ended: tuple = None


def run_notebook(cells, seeds, folder, limits=Limits(), sandbox="bwrap", hidden=(),
                 check_timeout=5.0):
    """Run `cells` ([{"index", "source", "graded"}]) of the notebook whose other files are in
    `folder` (copied, never written); returns {index: CellRun} for every cell.

    `seeds` ({exercise id: seed}) are the trials' seeds, `hidden` paths the sandbox must
    not show even where they lie inside a folder it shows (the course folder)."""
    if sandbox not in SANDBOXES:
        raise SandboxError(f"unknown sandbox {sandbox!r}: choose one of {', '.join(SANDBOXES)}")
    runs, skip = {}, set()
    ends_at = time.monotonic() + limits.total
    with tempfile.TemporaryDirectory(prefix="minigrad-grading-") as scratch:
        for attempt in range(limits.restarts + 1):
            work = pathlib.Path(scratch) / f"run-{attempt}"
            shutil.copytree(folder, work / "notebook", symlinks=True)
            job = {"cells": [{"index": c["index"], "source": c["source"]} for c in cells],
                   "skip": sorted(skip), "seeds": seeds, "check_timeout": check_timeout}
            ended = _attempt(job, cells, work, limits, sandbox, hidden, runs, ends_at,
                             first=attempt == 0)
            shutil.rmtree(work, ignore_errors=True)
            if ended is None:
                break
            cell, reason, detail = ended
            runs[cell] = CellRun([], True, [], (reason, detail))
            skip.add(cell)
            if time.monotonic() >= ends_at:
                break
    for cell in cells:
        runs.setdefault(cell["index"], CellRun([], True, [], ("not_run", "")))
    return runs


def _attempt(job, cells, work, limits, sandbox, hidden, runs, ends_at, first):
    """One worker's run over the cells not skipped, recorded into `runs`; returns None when
    it went through, else (the cell it stopped in, reason, detail)."""
    pending = [cell["index"] for cell in cells if cell["index"] not in job["skip"]]
    timeouts = {cell["index"]: limits.graded if cell["graded"] else limits.cell for cell in cells}
    (work / "home").mkdir()
    with open(work / "worker.log", "w+b") as log:
        try:
            process = subprocess.Popen(
                _command(sandbox, work, hidden), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=log, cwd=work / "notebook", env=_environment(sandbox, work),
                start_new_session=True, preexec_fn=lambda: _set_limits(limits))
        except FileNotFoundError:
            raise SandboxError(_start_failure(sandbox, None, b"")) from None
        try:
            process.stdin.write(json.dumps(job).encode("utf-8"))
            process.stdin.close()
        except BrokenPipeError:
            pass
        lines = _Lines(process.stdout, limits.output)
        started, done, running = False, 0, False      # done: how many of `pending` ran
        deadline = time.monotonic() + limits.start
        try:
            while True:
                expected = pending[done] if done < len(pending) else None
                event = lines.next(min(deadline, ends_at))
                kind = event.get("event") if isinstance(event, dict) else None
                if event is None:                           # the worker is gone
                    code = process.wait()
                    if not started and first:
                        log.seek(0)
                        raise SandboxError(_start_failure(sandbox, code, log.read()))
                    ended = _how_it_ended(code)
                elif kind == "ready" and not started:
                    started, deadline = True, time.monotonic() + limits.cell
                    continue
                elif kind == "start" and started and not running and event.get("cell") == expected:
                    running, deadline = True, time.monotonic() + timeouts[expected]
                    continue
                elif kind == "done" and running and event.get("cell") == expected:
                    runs[expected] = CellRun(_list(event.get("outputs")),
                                             event.get("error") is not False,
                                             _list(event.get("checks")))
                    done, running = done + 1, False
                    deadline = time.monotonic() + limits.cell
                    continue
                elif kind == "finished" and started and not running and expected is None:
                    _wait(process, 2.0)           # it ends by itself (its time is counted)
                    return None
                else:
                    ended = ("garbled", "")
                break
        except _Timeout:
            if not started and first:
                raise SandboxError(f"the grading worker did not start within {limits.start:g} s")
            ended = (("not_run", "") if time.monotonic() >= ends_at     # the notebook's time
                     else ("timeout", f"{timeouts.get(expected, limits.cell):g}"))
        except _TooMuch:
            ended = ("output", f"{limits.output // 2 ** 20}")
        finally:
            _kill(process)
    return None if expected is None else (expected, *ended)


def _list(value):
    return value if isinstance(value, list) else []


def _how_it_ended(code):
    if code is not None and code > 128:     # bubblewrap's: 128 + the signal that killed it
        return ("signal", signal.Signals(code - 128).name if code - 128 in signal.valid_signals()
                else str(code - 128))
    if code is not None and code < 0:       # no sandbox: Popen's -signal
        return ("signal", signal.Signals(-code).name)
    return ("exit", str(code))


def _start_failure(sandbox, code, log):
    if sandbox == "bwrap" and shutil.which("bwrap") is None:
        return ("the grading sandbox cannot start: bwrap was not found. Install bubblewrap "
                "(apt-get install bubblewrap; docs/teaching.md, \"Grading with nbgrader\")")
    text = log.decode("utf-8", "replace").strip()[-2000:]
    return f"the grading sandbox ({sandbox}) could not start (exit code {code}): {text}"


def _wait(process, seconds):
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        pass


def _kill(process):
    """The worker's whole process group (in bubblewrap: the namespace goes with it)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.stdout.close()
    process.wait()


def _set_limits(limits):
    """In the child, before it runs bwrap or Python: caps that its children inherit."""
    for name, value in ((resource.RLIMIT_AS, limits.memory), (resource.RLIMIT_FSIZE, limits.file),
                        (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(name, (value, value))


def _environment(sandbox, work):
    """The worker's environment, made from scratch: nothing of the grader's."""
    home = HOME if sandbox == "bwrap" else str(work / "home")
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8",
            "TMPDIR": "/tmp" if sandbox == "bwrap" else str(work / "home"),
            "MPLBACKEND": "Agg", "MPLCONFIGDIR": f"{home}/.matplotlib",
            "IPYTHONDIR": f"{home}/.ipython", "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _command(sandbox, work, hidden):
    worker = [sys.executable, "-I", "-B", "-m", "minigrad.tutor.grade_worker"]
    if sandbox == "none":
        return worker
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxError(_start_failure(sandbox, None, b""))
    shown = _python_folders()
    command = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
               "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr"]
    for name in _TOP:
        path = pathlib.Path("/", name)
        if path.is_symlink():
            command += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            command += ["--ro-bind", str(path), str(path)]
    for name in _ETC:
        command += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    # an empty /tmp first: Python's folders are shown after it, so a clone or a virtual
    # environment that lives in /tmp stays visible on top of it
    command += ["--size", str(64 * 2 ** 20), "--tmpfs", "/tmp"]
    for folder in shown:
        command += ["--ro-bind", str(folder), str(folder)]
    for path in _hidden_inside(shown, hidden):
        command += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
    command += ["--proc", "/proc", "--dev", "/dev",
                "--bind", str(work / "home"), HOME, "--bind", str(work / "notebook"),
                f"{HOME}/notebook", "--chdir", f"{HOME}/notebook", "--"]
    return command + worker


def _python_folders():
    """The folders the worker's Python needs, read-only: the interpreter's installation, the
    environment's packages, and minigrad's own folder (in an editable install, a clone)."""
    import minigrad
    folders = {pathlib.Path(p).resolve() for p in (sys.base_prefix, sys.base_exec_prefix,
                                                   sys.prefix, sys.exec_prefix)}
    folders.add(pathlib.Path(minigrad.__file__).resolve().parent)
    folders = {folder for folder in folders if not _inside(folder, pathlib.Path("/usr"))}
    return sorted(f for f in folders if not any(f != other and _inside(f, other) for other in folders))


def _hidden_inside(shown, hidden):
    """What the sandbox must leave out of the folders it shows: the worked notebooks of an
    installed minigrad, and the `hidden` paths that lie inside a shown folder."""
    import minigrad
    package = pathlib.Path(minigrad.__file__).resolve().parent
    found = sorted(package.glob("lessons/*/solutions"))
    for path in hidden:
        path = pathlib.Path(path).resolve()
        if path.exists() and any(_inside(path, folder) for folder in [*shown, pathlib.Path("/usr")]):
            found.append(path)
    return found


def _inside(path, folder):
    return path == folder or folder in path.parents


class _Timeout(Exception):
    pass


class _TooMuch(Exception):
    pass


class _Lines:
    """The worker's events, one JSON line each, read with a deadline."""

    def __init__(self, stream, limit):
        self.fd, self.limit, self.buffer, self.total = stream.fileno(), limit, b"", 0

    def next(self, deadline):
        """The next event (anything JSON: the caller checks it), or None at the end."""
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                raise _Timeout()
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                return None
            self.total += len(chunk)
            if self.total > self.limit:
                raise _TooMuch()
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return {"event": "unreadable"}
